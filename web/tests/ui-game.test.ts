// Issue 8 in the browser, against the stand-in server (tests/mock.ts): what
// just happened said beside the board, the prompt in words, the end of a
// game (rematch, new game, lobby), the table actions (resign, draw, abort),
// the hand-over on a shared device, "Cannot reach the server" cleared by a
// reconnection, the favicon. Each at 1366x800 and 390x844; screenshots go
// to web/test-results/ui-*.png.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { ActionInfo, View } from '../src/types.ts';
import { clickMove, launchBrowser, nextFrames, screenshot, skipPageTime, squareCenter, watchRequests } from './harness.ts';
import { MockServer, ORIGIN, WHITE_BLACK, demoVariant, gameInfo, startSquares } from './mock.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };
type Screen = typeof DESKTOP;
const SCREENS: [string, Screen][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

async function newPage(screen: Screen, server: MockServer, store?: { id: string; value: unknown }): Promise<Page> {
  const phone = screen.width < 700;
  const context = await browser.newContext({ viewport: screen, isMobile: phone, hasTouch: phone, deviceScaleFactor: phone ? 2 : 1 });
  if (store) {
    await context.addInitScript(([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    }, [`chesskit:game:${store.id}`, JSON.stringify(store.value)] as const);
  }
  await server.install(context);
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return page;
}

/** A position in the middle of a game, White (seat 0) to move, with a Masquerade-like capture attempt on offer. */
function midgame(seat: number, partial: Partial<View> = {}): View {
  return {
    variant: 'demo',
    viewer: { seat },
    seats: WHITE_BLACK,
    board: { files: 8, ranks: 8, squares: startSquares().filter(s => s.square !== 'e2' && s.square !== 'e7') },
    log: [
      { seat: 0, text: 'e2-e4' },
      { seat: 1, text: 'e7-e5' },
    ],
    prompt: 'Move a piece, or try a capture: only the referee knows whether it is one',
    to_act: [0],
    actions:
      seat === 0
        ? [
            { text: 'g1f3', from: 'g1', to: 'f3' },
            { text: 'd2d3', from: 'd2', to: 'd3' },
            { text: 'd1h5', from: 'd1', to: 'h5' },
          ]
        : [],
    session_actions: ['resign', 'offer draw'],
    ...partial,
  };
}

/** Play a move by its two squares: clicks on a desktop, taps on a phone. */
async function move(page: Page, from: string, to: string): Promise<void> {
  if (!page.viewportSize() || page.viewportSize()!.width >= 700) return clickMove(page, from, to);
  for (const key of [from, to]) {
    const { x, y } = await squareCenter(page, key);
    await page.touchscreen.tap(x, y);
    if (key === from) await page.locator('#board square.selected:visible').first().waitFor();
  }
}

/** The callout is where the player looks: beside the board on a desktop, above it on a phone, inside the first screen. */
async function assertInSight(page: Page, selector: string, screen: Screen): Promise<void> {
  await page.locator(selector).first().waitFor();
  // Both boxes measured in one task of the page: while a game is over the page asks every 3 s
  // whether a rematch has started and draws again, and an element found before a redraw has no box after it.
  const [box, board] = await page.evaluate(
    sel => [document.querySelector(sel), document.querySelector('#board')].map(e => (e ? e.getBoundingClientRect().toJSON() : null)),
    selector,
  );
  assert.ok(box && box.height > 0, `${selector} is drawn`);
  assert.ok(board, 'the board is drawn');
  assert.ok(box.y + box.height <= screen.height, `${selector} is on the first screen (bottom ${box.y + box.height})`);
  if (screen.width < 700) assert.ok(box.y + box.height <= board.y + 1, `${selector} is above the board on a phone`);
  else assert.ok(box.x >= board.x + board.width, `${selector} is beside the board on a desktop`);
}

describe('what just happened, where the player looks', () => {
  for (const [name, screen] of SCREENS) {
    test(`a failed capture attempt, the opponent's answer and a refused move, in words (${name})`, async () => {
      const server = new MockServer([demoVariant(true)], gameInfo('g1', ['human', 'human']), { t0: 0 });
      server.views.set('t0', { version: 2, view: midgame(0) });
      server.onAction = ({ action }) => {
        if (action === 'd2d3') return { status: 422, body: { error: 'that pawn cannot move: your own piece stands in the way' } };
        // The queen "captures" on h5: no piece there, so the attempt fails and White moves again.
        const log = [...midgame(0).log, { seat: 0, text: 'Qd1xh5: no capture' }];
        const view = midgame(0, { log, prompt: 'Your capture attempt failed: make a move' });
        server.views.set('t0', { version: 3, view });
        return { status: 200, body: { action, version: 3, view } };
      };
      const page = await newPage(screen, server, { id: 'g1', value: { tokens: { 0: 't0' }, invites: [], seen: { 0: 2 } } });
      await page.goto(`${ORIGIN}/play/g1`);
      await page.locator('main.game[data-version="2"]').waitFor();
      assert.equal(await page.locator('.news').count(), 0, 'nothing new since the last look (stored)');

      await move(page, 'd1', 'h5');
      await page.locator('main.game[data-version="3"]').waitFor();
      assert.equal(await page.locator('.news').textContent(), 'Latest:You: Qd1xh5: no capture');
      assert.equal(await page.locator('.callout .status .prompt').textContent(), 'Your capture attempt failed: make a move');
      await assertInSight(page, '.news', screen);
      await screenshot(page, `ui-news-attempt-${name}`);

      // Black's answer arrives: the news is what happened since the previous view.
      const answered = midgame(0, {
        log: [...midgame(0).log, { seat: 0, text: 'Qd1xh5: no capture' }, { seat: 0, text: 'g1-f3' }, { seat: 1, text: 'Black guessed wrong' }],
      });
      server.push('t0', 5, answered);
      await page.locator('main.game[data-version="5"]').waitFor();
      assert.deepEqual(await page.locator('.news .news-item').allTextContents(), ['You: g1-f3', 'Black guessed wrong']);

      await move(page, 'd2', 'd3');
      await page.locator('.callout .messages .error').waitFor();
      assert.match((await page.locator('.callout .messages .error').textContent()) ?? '', /your own piece stands in the way/);
      await assertInSight(page, '.callout .messages .error', screen);
      await screenshot(page, `ui-news-refused-${name}`);
      assert.equal(await page.locator('.news').count(), 1, 'the news stays beside the error');
      await page.context().close();
    });
  }

  test('a reload shows what happened while the player was away, and says how much more is in the move list', async () => {
    const server = new MockServer([demoVariant(false)], gameInfo('g1', ['human', 'open']), { t0: 0 });
    const log = ['e2-e4', 'e7-e5', 'g1-f3', 'b8-c6', 'f1-b5', 'a7-a6'].map((text, i) => ({ seat: i % 2, text }));
    server.views.set('t0', { version: 6, view: midgame(0, { log }) });
    const page = await newPage(DESKTOP, server, { id: 'g1', value: { tokens: { 0: 't0' }, invites: [], seen: { 0: 1 } } });
    await page.goto(`${ORIGIN}/play/g1`);
    await page.locator('main.game[data-version="6"]').waitFor();
    assert.equal(await page.locator('.news .news-earlier').textContent(), '1 earlier entry in the move list,');
    assert.deepEqual(await page.locator('.news .news-item').allTextContents(), ['Black: e7-e5', 'You: g1-f3', 'Black: b8-c6', 'You: f1-b5', 'Black: a7-a6'].slice(-4));
    const seen = await page.evaluate(() => JSON.parse(localStorage.getItem('chesskit:game:g1') ?? '{}').seen);
    assert.deepEqual(seen, { 0: 6 }, 'the page remembers what this seat has now seen');
    await page.reload();
    await page.locator('main.game[data-version="6"]').waitFor();
    assert.equal(await page.locator('.news').count(), 0, 'nothing new after a reload');
    await page.context().close();
  });
});

describe('prompts in words', () => {
  const assignments: ActionInfo[] = ['KR QK RN BB NQ', 'KQ QK RN BB NR', 'KN QR RK BB NQ'].flatMap((a, i) =>
    Array.from({ length: 7 }, (_, j) => ({ text: `assign ${a} ${j}`, label: `Secret ${i * 7 + j + 1}: ${a.split(' ').map(p => `${p[0]} as ${p[1]}`).join(', ')}` })),
  );
  for (const [name, screen] of SCREENS) {
    test(`the prompt stands above the actions, and no action shows its raw text where it has a label (${name})`, async () => {
      const server = new MockServer([demoVariant(true)], gameInfo('g1', ['human', 'computer']), { t0: 0 });
      const view = midgame(0, {
        log: [],
        prompt: 'Choose your secret: which piece each of your pieces pretends to be',
        actions: [...assignments, { text: 'pass', label: 'Pass your turn' }],
      });
      server.views.set('t0', { version: 0, view });
      const page = await newPage(screen, server);
      await page.goto(`${ORIGIN}/play/g1?token=t0`);
      await page.locator('main.game[data-version="0"]').waitFor();
      assert.equal(await page.locator('.callout .status .prompt').textContent(), view.prompt);
      await assertInSight(page, '.callout .status .prompt', screen);
      const shown = [
        ...(await page.locator('button').allTextContents()),
        ...(await page.locator('select option').allTextContents()),
        ...(await page.locator('.action-picker label').allTextContents()),
      ];
      for (const action of view.actions) {
        assert.ok(!shown.some(t => t.includes(action.text)), `"${action.text}" is never shown as it is written`);
      }
      assert.ok(shown.includes('Pass your turn'));
      await screenshot(page, `ui-prompt-${name}`);
      await page.context().close();
    });
  }
});

describe('table actions: resign, draw offers, abort', () => {
  for (const [name, screen] of SCREENS) {
    test(`resign asks first; a draw offer is sent, and shown to the other side to accept or decline (${name})`, async () => {
      const server = new MockServer([demoVariant(false)], gameInfo('g1', ['human', 'human']), { t0: 0, t1: 1 });
      server.views.set('t0', { version: 2, view: midgame(0) });
      server.views.set('t1', { version: 2, view: midgame(1, { session_actions: ['resign', 'offer draw'] }) });
      server.onAction = ({ token, action }) => {
        const seat = server.seats[token];
        let white = midgame(0);
        let black = midgame(1);
        if (action === 'offer draw') {
          white = midgame(0, { draw_offer: 0, session_actions: ['resign'] });
          black = midgame(1, { draw_offer: 0, session_actions: ['resign', 'accept draw', 'decline draw'] });
        }
        if (action === 'decline draw') black = midgame(1, { session_actions: ['resign'] });
        if (action === 'resign') {
          const outcome = { winners: [1 - seat], reason: 'resignation' };
          white = midgame(0, { outcome, to_act: [], actions: [], session_actions: [] });
          black = midgame(1, { outcome, to_act: [], actions: [], session_actions: [] });
        }
        const version = server.views.get(token)!.version + 1;
        server.push('t0', version, white);
        server.push('t1', version, black);
        return { status: 200, body: { action, version, view: seat === 0 ? white : black } };
      };
      // White's device and Black's device.
      const white = await newPage(screen, server, { id: 'g1', value: { tokens: { 0: 't0' }, invites: [] } });
      const black = await newPage(screen, server, { id: 'g1', value: { tokens: { 1: 't1' }, invites: [] } });
      await white.goto(`${ORIGIN}/play/g1`);
      await black.goto(`${ORIGIN}/play/g1`);
      await white.locator('main.game[data-version="2"]').waitFor();
      await black.locator('main.game[data-version="2"]').waitFor();
      assert.deepEqual(await white.locator('button.session-action').allTextContents(), ['Resign', 'Offer a draw']);

      await white.locator('button[data-session="resign"]').click();
      assert.equal(await white.locator('.confirm p').textContent(), 'Resign this game? Your side loses.');
      await screenshot(white, `ui-resign-confirm-${name}`);
      await white.locator('button[data-cancel="resign"]').click();
      assert.equal(await white.locator('.confirm').count(), 0);
      assert.deepEqual(server.posted, [], 'nothing sent before "Yes"');

      await white.locator('button[data-session="offer draw"]').click();
      await white.locator('.draw-offer').waitFor();
      assert.equal(await white.locator('.draw-offer').textContent(), 'You offered a draw: waiting for the answer.');
      await black.locator('.draw-offer').waitFor();
      assert.equal(await black.locator('.draw-offer').textContent(), 'White offers a draw. Accept or decline?');
      await assertInSight(black, '.draw-offer', screen);
      assert.deepEqual(await black.locator('button.session-action').allTextContents(), ['Resign', 'Accept the draw', 'Decline the draw']);
      await screenshot(black, `ui-draw-offer-${name}`);
      await black.locator('button[data-session="decline draw"]').click();
      await black.waitForFunction(() => !document.querySelector('.draw-offer'));

      await black.locator('button[data-session="resign"]').click();
      await black.locator('button[data-confirm="resign"]').click();
      await white.locator('.status .outcome').waitFor();
      assert.equal(await white.locator('.status .outcome').textContent(), 'White wins (resignation)');
      assert.deepEqual(
        (server.posted as { token: string; action: string }[]).map(p => `${p.token}:${p.action}`),
        ['t0:offer draw', 't1:decline draw', 't1:resign'] as string[],
      );
      assert.equal(await white.locator('button.session-action').count(), 0, 'no table actions once over');
      await white.context().close();
      await black.context().close();
    });
  }

  test('abort a game whose invited friend never came, after a confirmation', async () => {
    const info = gameInfo('g1', ['human', 'open']);
    info.seats[1].joined = false;
    const server = new MockServer([demoVariant(false)], info, { t0: 0 });
    server.views.set('t0', { version: 0, view: midgame(0, { log: [], session_actions: ['abort'] }) });
    server.onAction = ({ action }) => {
      const view = midgame(0, { log: [], outcome: { winners: [], reason: 'aborted' }, to_act: [], actions: [], session_actions: [] });
      return { status: 200, body: { action, version: 1, view } };
    };
    const page = await newPage(DESKTOP, server, {
      id: 'g1',
      value: { tokens: { 0: 't0' }, invites: [{ seat: 1, name: 'Black', path: '/play/g1?token=friend' }] },
    });
    await page.goto(`${ORIGIN}/play/g1`);
    await page.locator('button[data-session="abort"]').click();
    assert.equal(await page.locator('.confirm p').textContent(), 'Abort this game? It ends with no winner.');
    await page.locator('button[data-confirm="abort"]').click();
    await page.locator('.status .outcome').waitFor();
    assert.equal(await page.locator('.status .outcome').textContent(), 'Game aborted: no winner');
    assert.deepEqual(server.posted, [{ token: 't0', action: 'abort' }]);
    assert.deepEqual(await page.locator('section.end .buttons > *').allTextContents(), ['New game', 'Back to the lobby'], 'no rematch without an opponent');
    await page.context().close();
  });
});

describe('the end of a game', () => {
  const variant = {
    ...demoVariant(false),
    options: [
      ...demoVariant(false).options,
      { name: 'solver_nodes', type: 'int' as const, min: 1, max: 1_000_000_000, default: 100_000_000, help: 'How hard the solver works', advanced: true },
    ],
  };
  const over = () => midgame(0, { outcome: { winners: [1], reason: 'checkmate' }, to_act: [], actions: [], session_actions: [] });

  for (const [name, screen] of SCREENS) {
    test(`"Rematch" starts the same players with colours swapped (${name})`, async () => {
      const server = new MockServer([variant], gameInfo('g1', ['human', 'computer:level6']), { t0: 0 });
      server.views.set('t0', { version: 9, view: over() });
      server.recordOptions = { coins: 6, solver_nodes: 5000 };
      server.onRematch = () => ({ status: 201, body: { id: 'g2', variant: 'demo', seat: 1, name: 'Black', token: 'new' } });
      const page = await newPage(screen, server, { id: 'g1', value: { tokens: { 0: 't0' }, invites: [] } });
      await page.goto(`${ORIGIN}/play/g1`);
      await page.locator('section.end').waitFor();
      assert.deepEqual(await page.locator('section.end .buttons > *').allTextContents(), ['Rematch', 'New game', 'Back to the lobby']);
      assert.equal(await page.locator('#to-lobby').getAttribute('href'), '/');
      await assertInSight(page, 'section.end', screen);
      await screenshot(page, `ui-end-${name}`);
      await page.locator('#rematch').click();
      await page.waitForURL(/\/play\/g2/);
      // The server starts the rematch (POST /api/games/g1/rematch, crates/server/src/rematch.rs) for this seat's token.
      assert.deepEqual(server.rematchBodies, [{ token: 't0' }]);
      assert.deepEqual(server.createdBodies, [], 'the page creates no game of its own');
      const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('chesskit:game:g2'))) ?? '{}');
      assert.deepEqual(stored.tokens, { 1: 'new' });
      assert.deepEqual(stored.options, { coins: 6, solver_nodes: 5000 }, 'kept for a "New game" after it');
      await page.context().close();
    });
  }

  test('"New game" opens the lobby with the variant, its options (advanced ones too) and the seats filled in', async () => {
    const server = new MockServer([{ ...demoVariant(false), name: 'other', title: 'Other' }, variant], gameInfo('g1', ['human', 'computer:level6']), { t0: 0 });
    server.views.set('t0', { version: 9, view: over() });
    server.recordOptions = { coins: 6, solver_nodes: 5000 };
    const page = await newPage(DESKTOP, server, { id: 'g1', value: { tokens: { 0: 't0' }, invites: [] } });
    await page.goto(`${ORIGIN}/play/g1`);
    await page.locator('#new-game').click();
    await page.waitForURL(`${ORIGIN}/`);
    await page.locator('#create').waitFor();
    assert.equal(await page.locator('button.variant.selected').getAttribute('data-variant'), 'demo');
    assert.equal(await page.locator('[data-option="coins"]').inputValue(), '6');
    assert.equal(await page.locator('details.more-options').getAttribute('open'), '', 'the set advanced option is in sight');
    assert.equal(await page.locator('[data-option="solver_nodes"]').inputValue(), '5000');
    assert.equal(await page.locator('select[data-seat="0"]').inputValue(), 'me');
    assert.equal(await page.locator('select[data-seat="1"]').inputValue(), 'computer:level6');
    await screenshot(page, 'ui-new-game-lobby-desktop');
    server.onCreate = () => ({ status: 201, body: { id: 'g3', variant: 'demo', seats: [{ seat: 0, name: 'White', kind: 'human', token: 'x' }] } });
    await page.locator('#create').click();
    await page.waitForURL(/\/play\/g3/);
    assert.deepEqual(server.createdBodies, [{ variant: 'demo', options: { coins: 6, solver_nodes: 5000 }, seats: ['human', 'computer:level6'] }]);
    await page.context().close();
  });
});

describe('passing the device in a hidden-information game', () => {
  for (const [name, screen] of SCREENS) {
    test(`the player sees the "no" to their capture attempt before the screen covers (${name})`, async () => {
      const server = new MockServer([demoVariant(true)], gameInfo('g2', ['human', 'human']), { t0: 0, t1: 1 });
      const secret = (seat: number) => [`${WHITE_BLACK[seat].name}'s secret: the queen plays the king`];
      server.views.set('t0', { version: 2, view: midgame(0, { notes: secret(0) }) });
      server.views.set('t1', { version: 2, view: midgame(1, { notes: secret(1) }) });
      server.onAction = ({ action }) => {
        const log = [...midgame(0).log, { seat: 0, text: 'Qd1xh5: no capture' }];
        const white = midgame(0, { log, notes: secret(0), to_act: [1], actions: [], prompt: 'Black to move' });
        const black = midgame(1, { log, notes: secret(1), to_act: [1], actions: [{ text: 'g8f6', from: 'g8', to: 'f6' }] });
        server.views.set('t0', { version: 3, view: white });
        setTimeout(() => server.push('t1', 3, black), 30);
        return { status: 200, body: { action, version: 3, view: white } };
      };
      const page = await newPage(screen, server, { id: 'g2', value: { tokens: { 0: 't0', 1: 't1' }, invites: [] } });
      await page.goto(`${ORIGIN}/play/g2`);
      await page.locator('#privacy-ready').click();
      await page.locator('main.game[data-seat="0"][data-version="2"]').waitFor();
      await move(page, 'd1', 'h5');
      await page.locator('#pass-device').waitFor();
      await server.until(() => server.views.get('t1')?.version === 3, "Black's view is sent");
      await nextFrames(page); // and has come in
      assert.equal(await page.locator('.news').textContent(), 'Latest:You: Qd1xh5: no capture');
      assert.equal(await page.locator('main.game').getAttribute('data-seat'), '0');
      assert.equal(await page.locator('.privacy').isVisible(), false);
      assert.equal(await page.getByText("Black's secret").count(), 0, 'nothing of Black’s is drawn before the cover');
      assert.equal(await page.locator('#pass-device').textContent(), 'Pass to Black');
      await assertInSight(page, '#pass-device', screen);
      await screenshot(page, `ui-pass-result-${name}`);

      await page.locator('#pass-device').click();
      assert.equal(await page.locator('main.game').isVisible(), false);
      assert.equal(await page.locator('.privacy .privacy-title').textContent(), 'Pass the device to Black');
      await screenshot(page, `ui-pass-cover-${name}`);
      await page.locator('#privacy-ready').click();
      await page.locator('main.game[data-seat="1"]').waitFor();
      assert.deepEqual(await page.locator('.notes li').allTextContents(), secret(1));
      assert.equal(await page.locator('.news').textContent(), 'Latest:White: Qd1xh5: no capture', 'Black learns what White tried');
      await page.context().close();
    });
  }
});

describe('the server comes back', () => {
  test('"cannot reach the server" goes away when the socket reconnects, and the view catches up', async () => {
    const server = new MockServer([demoVariant(false)], gameInfo('g1', ['human', 'computer']), { t0: 0 });
    server.views.set('t0', { version: 2, view: midgame(0) });
    const page = await newPage(DESKTOP, server, { id: 'g1', value: { tokens: { 0: 't0' }, invites: [] } });
    // The page's clock, so that the socket's growing pause between tries (up to 10 s) can be skipped, not waited out.
    await page.clock.install();
    await page.goto(`${ORIGIN}/play/g1`);
    await page.locator('main.game[data-version="2"]').waitFor();
    server.unreachable = true;
    server.dropSockets();
    await page.locator('.messages .offline').waitFor();
    await move(page, 'g1', 'f3');
    await page.locator('.messages .error').waitFor();
    const tried = server.socketAttempts;
    assert.equal(
      await page.locator('.messages .error').textContent(),
      'Cannot reach the server: that was not sent. Try again once the connection is back.',
    );
    await skipPageTime(page, () => server.socketAttempts >= tried + 2);
    await server.until(() => server.socketAttempts >= tried + 2, 'the socket tries twice more');
    assert.equal(await page.locator('.messages .error').count(), 1, 'still down: the error stays');
    await screenshot(page, 'ui-offline-desktop');

    server.views.set('t0', { version: 4, view: midgame(0, { log: [...midgame(0).log, { seat: 0, text: 'g1-f3' }, { seat: 1, text: 'b8-c6' }] }) });
    server.unreachable = false;
    await skipPageTime(page, () => server.views.get('t0')!.version === 4 && server.socketAttempts > tried + 2);
    await page.locator('main.game[data-version="4"]').waitFor();
    assert.equal(await page.locator('.messages .error').count(), 0, 'cleared without another action');
    assert.equal(await page.locator('.messages .offline').count(), 0);
    await page.context().close();
  });
});

describe('the favicon', () => {
  for (const [name, screen] of SCREENS) {
    test(`the lobby and the game page ask for nothing that is missing (${name})`, async () => {
      const server = new MockServer([demoVariant(false)], gameInfo('g1', ['human', 'computer']), { t0: 0 });
      server.views.set('t0', { version: 2, view: midgame(0) });
      const page = await newPage(screen, server);
      const requests = watchRequests(page);
      const missing: string[] = [];
      page.on('response', r => {
        if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
      });
      await page.goto(`${ORIGIN}/`);
      await page.locator('#create').waitFor();
      await page.goto(`${ORIGIN}/play/g1?token=t0`);
      await page.locator('main.game[data-version="2"]').waitFor();
      const href = await page.locator('link[rel="icon"]').getAttribute('href');
      const icon = await page.evaluate(async url => {
        const r = await fetch(url);
        return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
      }, href!);
      assert.equal(icon.status, 200);
      assert.equal(icon.type, 'image/svg+xml');
      assert.match(icon.text, /^<svg/);
      await requests.quiet();
      assert.deepEqual(missing, []);
      await page.context().close();
    });
  }
});

describe('the lobby', () => {
  for (const [name, screen] of SCREENS) {
    test(`advanced options wait behind "More options"; "Your games" says title, opponents, whose turn and when (${name})`, async () => {
      const variant = {
        ...demoVariant(false),
        name: 'golf',
        title: 'Chess Golf',
        options: [
          { name: 'players', type: 'int' as const, min: 1, max: 6, default: 2, help: 'How many play' },
          { name: 'max_nodes', type: 'int' as const, min: 1, max: 1_000_000_000, default: 100_000_000, help: 'How long the solver may look at a deal', advanced: true },
        ],
      };
      const server = new MockServer([variant], gameInfo('g1', ['human', 'computer:level2']), {});
      const now = Math.floor(Date.now() / 1000);
      server.games.set('g1', { ...gameInfo('g1', ['human', 'computer:level2']), title: 'Zombie Chess', to_act: [0], created: now - 7200, updated: now - 90 });
      server.games.set('g2', {
        ...gameInfo('g2', ['human', 'open']),
        title: 'Masquerade Chess',
        seats: [
          { seat: 0, name: 'White', kind: 'human', joined: true },
          { seat: 1, name: 'Black', kind: 'open', joined: true },
        ],
        to_act: [1],
        created: now - 3 * 86400,
      });
      server.games.set('g3', {
        ...gameInfo('g3', ['human', 'computer:level6']),
        title: 'Chess',
        over: true,
        outcome: { winners: [0], reason: 'checkmate' },
        to_act: [],
        created: now - 86400,
        updated: now - 86000,
      });
      const context = await browser.newContext({ viewport: screen, isMobile: screen.width < 700, hasTouch: screen.width < 700 });
      await context.addInitScript(() => {
        if (localStorage.length) return;
        const save = (id: string, title: string, saved: number) =>
          localStorage.setItem(`chesskit:game:${id}`, JSON.stringify({ tokens: { 0: `t-${id}` }, invites: [], title, saved }));
        save('g1', 'Zombie Chess', 3);
        save('g2', 'Masquerade Chess', 2);
        save('g3', 'Chess', 1);
        save('gone', 'Cloak and Dagger', 0);
      });
      await server.install(context);
      const page = await context.newPage();
      await page.goto(`${ORIGIN}/`);
      await page.locator('.my-game[data-state="over"]').waitFor();
      await page.locator('.my-game[data-state="gone"]').waitFor();

      assert.equal(await page.locator('[data-option="players"]').isVisible(), true);
      assert.equal(await page.locator('[data-option="max_nodes"]').isVisible(), false, 'tucked away');
      assert.equal(await page.locator('details.more-options summary').textContent(), 'More options');
      const rows = await page.locator('.my-game').evaluateAll(items =>
        items.map(li => [li.getAttribute('data-state'), li.querySelector('.my-title')?.textContent, ...[...li.querySelectorAll('.my-detail > span')].map(s => s.textContent)]),
      );
      assert.deepEqual(rows, [
        ['yours', 'Zombie Chess', 'against Black (computer, easy)', 'Your turn', 'last move 1 minute ago · started 2 hours ago'],
        ['theirs', 'Masquerade Chess', 'against Black (friend)', 'Waiting for Black', 'started 3 days ago'],
        ['over', 'Chess', 'against Black (computer, hard)', 'Over: White wins (checkmate)', 'last move 23 hours ago · started 1 day ago'],
        ['gone', 'Cloak and Dagger'],
      ]);
      assert.equal(await page.locator('.my-game[data-state="gone"] .my-detail').textContent(), 'The server no longer has this game');
      await screenshot(page, `ui-lobby-${name}`);
      await page.locator('details.more-options summary').click();
      assert.equal(await page.locator('[data-option="max_nodes"]').isVisible(), true);
      if (screen.width < 700) assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), screen.width, 'no sideways scrolling');
      await context.close();
    });
  }
});
