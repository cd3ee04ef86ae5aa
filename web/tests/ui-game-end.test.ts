// Issue 8 in the browser, against the stand-in server (tests/mock.ts): the
// end of a game (rematch, new game), the hand-over on a shared device,
// "Cannot reach the server" cleared by a reconnection, the favicon, the
// lobby. Each at 1366x800 and 390x844; screenshots go to
// web/test-results/ui-*.png. (What just happened, the prompt, the table
// actions: ui-game.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserOfFile, nextFrames, screenshot, skipPageTime, watchRequests } from './harness.ts';
import { MockServer, ORIGIN, WHITE_BLACK, demoVariant, gameInfo } from './mock.ts';
import { DESKTOP, SCREENS, type Screen, assertInSight, midgame, move, newPage as newGamePage } from './ui-page.ts';

const chromium = browserOfFile();

const newPage = (screen: Screen, server: MockServer, store?: { id: string; value: unknown }) => newGamePage(chromium.browser, screen, server, store);

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
      const context = await chromium.browser.newContext({ viewport: screen, isMobile: screen.width < 700, hasTouch: screen.width < 700 });
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
