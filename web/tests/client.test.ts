// The client in headless Chromium against a stand-in server (tests/mock.ts):
// every part of a generic view drawn, every kind of action offered and sent,
// a refused move undone, the outcome, the privacy screen between seats on a
// shared device, and the phone layout. Screenshots go to web/test-results/.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { View } from '../src/types.ts';
import { clickMove, clickSquare, dragMove, drawnCount, launchBrowser, logEntries, pieceAt, screenshot, settledPieceAt, watchRequests } from './harness.ts';
import { MockServer, ORIGIN, WHITE_BLACK, demoVariant, gameInfo, richView, startSquares } from './mock.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function richGame(): Promise<{ page: Page; server: MockServer }> {
  const server = new MockServer([demoVariant(false)], gameInfo('g1', ['human', 'computer']), { t0: 0 });
  server.views.set('t0', { version: 5, view: richView() });
  server.onAction = ({ token, action }) => {
    if (action === 'e2e3') return { status: 422, body: { error: 'illegal action "e2e3": the stand-in refuses it' } };
    const { version, view } = server.views.get(token)!;
    server.views.set(token, { version: version + 1, view });
    return { status: 200, body: { action, version: version + 1, view } };
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await server.install(context);
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/play/g1?token=t0`);
  await page.locator('main.game[data-version="5"]').waitFor();
  return { page, server };
}

describe('a generic view', () => {
  test('draws the board with markers, the cards, tables, notes, log and prompt', async () => {
    const { page } = await richGame();
    await screenshot(page, 'mock-rich-desktop');
    assert.equal(new URL(page.url()).search, '', 'the token leaves the address bar');
    const stored = await page.evaluate(() => localStorage.getItem('chesskit:game:g1'));
    assert.match(stored ?? '', /"0":"t0"/, 'the token is kept for reloads');

    assert.equal(await page.locator('.status .turn').textContent(), 'Your turn');
    assert.equal(await page.locator('.status .prompt').textContent(), 'Move, bury a piece, or play a card');
    assert.equal(await pieceAt(page, 'e1'), 'white king');
    assert.equal(await pieceAt(page, 'f6'), 'black hidden', 'a hidden piece is a disc');
    for (const kind of ['zombie', 'checkers', 'burial', 'chosen', 'mirror', 'label', 'piece-label']) {
      assert.equal(await page.locator(`#board .marker-${kind}`).count(), 1, `marker ${kind}`);
    }
    assert.equal(await drawnCount(page, '#board square.check', 1), 1);
    assert.equal(await drawnCount(page, '#board square.last-move', 2), 2);
    assert.equal(await drawnCount(page, '#board square.target', 2), 2, 'squares with an action of their own');
    assert.deepEqual(await page.locator('[data-zone="Your hand"] .card').allTextContents(), ['9♥', 'Q♠', '10♦', 'A♣']);
    assert.equal(await page.locator('[data-zone="Your hand"] [data-card="9h"]').getAttribute('class'), 'card playable red');
    assert.equal(await page.locator('[data-zone="Deck"] .card.back.pile .count').textContent(), '30');
    assert.equal(await page.locator('[data-zone="Hand"] .card.back').count(), 4);
    assert.deepEqual(await page.locator('.tables td').allTextContents(), ['c6', 'P']);
    assert.deepEqual(await page.locator('.notes li').allTextContents(), ['You buried the pawn under c6.']);
    assert.deepEqual(await logEntries(page), ['e4', 'd5', 'exd5', 'White buried a piece', 'Qxd5']);
    assert.deepEqual(await page.locator('button.action').allTextContents(), ['bury c6', 'bury e2', 'play 9♥', 'Done']);
    assert.match((await page.locator('details.rules').textContent()) ?? '', /every part of the generic view/);
    await page.context().close();
  });

  test('offers every action: square clicks, promotion picker, cards, buttons; a refused move is undone', async () => {
    const { page, server } = await richGame();
    const sent = () => server.posted.map(p => `${p.token}:${p.action}`);

    await clickSquare(page, 'c6'); // a square with an action of its own
    await page.waitForFunction(() => document.querySelector('main.game')?.getAttribute('data-version') === '6');
    assert.deepEqual(sent(), ['t0:bury c6']);

    await dragMove(page, 'a7', 'a8');
    await page.locator('.picker').waitFor();
    assert.equal(await page.locator('.picker button.pick').count(), 4);
    await screenshot(page, 'mock-promotion-picker');
    await page.locator('.picker button[data-action="a7a8n"]').click();
    await page.waitForFunction(() => document.querySelectorAll('.picker').length === 0);
    await server.until(() => server.posted.length >= 2, 'the promotion is posted');
    assert.deepEqual(sent().slice(1), ['t0:a7a8n']);

    await page.locator('[data-zone="Your hand"] [data-card="9h"]').click();
    await page.locator('button.action[data-action="done"]').click();
    await server.until(() => server.posted.length >= 4, 'the card and done are posted');
    assert.deepEqual(sent().slice(2), ['t0:play 9h', 't0:done']);

    await clickMove(page, 'e2', 'e3'); // the stand-in refuses this one
    await page.locator('.messages .error').waitFor();
    assert.match((await page.locator('.messages .error').textContent()) ?? '', /the stand-in refuses it/);
    assert.equal(await settledPieceAt(page, 'e2', 'white pawn'), 'white pawn', 'the refused move is taken back');
    assert.equal(await settledPieceAt(page, 'e3', null), null);
    await page.context().close();
  });

  test('shows the outcome when it arrives over the socket', async () => {
    const { page, server } = await richGame();
    const final = { ...richView(), actions: [], to_act: [], prompt: undefined, outcome: { winners: [1], reason: 'checkmate' } };
    server.push('t0', 9, final);
    await page.locator('.status .outcome').waitFor();
    assert.equal(await page.locator('.status .outcome').textContent(), 'Black wins (checkmate)');
    assert.equal(await page.locator('button.action').count(), 0);
    await screenshot(page, 'mock-outcome');
    await page.context().close();
  });

  test('reconnects after the connection drops, and catches up with what it missed', async () => {
    const { page, server } = await richGame();
    server.dropSockets();
    await page.locator('.messages .offline').waitFor();
    const final = { ...richView(), actions: [], to_act: [], prompt: undefined, outcome: { winners: [0], reason: 'resignation' } };
    server.views.set('t0', { version: 7, view: final }); // what the page missed while offline
    await page.locator('main.game[data-version="7"]').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.messages .offline').count(), 0);
    assert.equal(await page.locator('.status .outcome').textContent(), 'White wins (resignation)');
    await page.context().close();
  });

  test('fits a phone: the board fills the width and the panels follow below', async () => {
    const server = new MockServer([demoVariant(false)], gameInfo('g1', ['human', 'computer']), { t0: 0 });
    server.views.set('t0', { version: 5, view: richView() });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await server.install(context);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/play/g1?token=t0`);
    await page.locator('main.game[data-version="5"]').waitFor();
    await screenshot(page, 'mock-phone');
    const board = (await page.locator('#board').boundingBox())!;
    const panel = (await page.locator('aside.panel').boundingBox())!;
    assert.ok(board.width >= 380 && board.width <= 390, `board width ${board.width}`);
    assert.ok(panel.y >= board.y + board.height, 'the panels come below the board');
    assert.ok(panel.x + panel.width <= 390.5, 'nothing runs off the right edge');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await context.close();
  });
});

describe('several people on one device', () => {
  /** White to move; Black's view, held on the same device, has nothing to do. */
  function views(version: number, toAct: number): [View, View] {
    const make = (seat: number): View => ({
      variant: 'demo',
      viewer: { seat },
      seats: WHITE_BLACK,
      board: { files: 8, ranks: 8, squares: startSquares() },
      log: version > 1 ? [{ seat: 0, text: 'e4' }] : [],
      notes: [`${WHITE_BLACK[seat].name}'s secret note`],
      to_act: [toAct],
      actions: seat !== toAct ? [] : seat === 0 ? [{ text: 'e2e4', from: 'e2', to: 'e4' }] : [{ text: 'e7e5', from: 'e7', to: 'e5' }],
    });
    return [make(0), make(1)];
  }

  async function sharedGame(hidden: boolean): Promise<{ page: Page; server: MockServer }> {
    const server = new MockServer([demoVariant(hidden)], gameInfo('g2', ['human', 'human']), { t0: 0, t1: 1 });
    const [white, black] = views(1, 0);
    server.views.set('t0', { version: 1, view: white });
    server.views.set('t1', { version: 1, view: black });
    server.onAction = ({ action }) => {
      const [w, b] = views(2, 1);
      setTimeout(() => server.push('t1', 2, b), 50);
      server.views.set('t0', { version: 2, view: w });
      return { status: 200, body: { action, version: 2, view: w } };
    };
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem('chesskit:game:g2')) {
        localStorage.setItem('chesskit:game:g2', JSON.stringify({ tokens: { 0: 't0', 1: 't1' }, invites: [] }));
      }
    });
    await server.install(context);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/play/g2`);
    return { page, server };
  }

  test('in a hidden-information game a privacy screen stands between the seats', async () => {
    const { page, server } = await sharedGame(true);
    const screen = page.locator('.privacy');
    await screen.waitFor();
    assert.equal(await screen.textContent(), 'Pass the device to WhiteTap when ready');
    assert.equal(await page.locator('main.game').isVisible(), false, 'nothing of the game shows behind the screen');
    await screenshot(page, 'mock-privacy-screen');

    await page.locator('#privacy-ready').click();
    await page.locator('main.game[data-seat="0"]').waitFor();
    assert.deepEqual(await page.locator('.notes li').allTextContents(), ["White's secret note"]);
    assert.equal(await page.locator('#board.orientation-white').count(), 1);

    await clickMove(page, 'e2', 'e4');
    // White sees what came of the move first; the screen covers only when White passes the device.
    await page.locator('#pass-device').waitFor();
    assert.equal(await page.locator('#pass-device').textContent(), 'Pass to Black');
    assert.equal(await page.locator('.privacy').isVisible(), false);
    assert.equal(await page.locator('main.game').getAttribute('data-seat'), '0');
    assert.equal(await page.getByText("Black's secret note").count(), 0, 'nothing of Black’s before the cover');
    assert.deepEqual(server.posted, [{ token: 't0', action: 'e2e4' }]);
    assert.equal(server.postedSince.length, 1);
    assert.equal(typeof server.postedSince[0], 'number', 'the action says which version the page holds');
    await page.locator('#pass-device').click();
    await page.locator('.privacy').waitFor();
    assert.equal(await page.locator('.privacy').textContent(), 'Pass the device to BlackTap when ready');
    assert.equal(await page.locator('main.game').isVisible(), false);
    await page.locator('#privacy-ready').click();
    await page.locator('main.game[data-seat="1"]').waitFor();
    assert.deepEqual(await page.locator('.notes li').allTextContents(), ["Black's secret note"]);
    assert.equal(await page.locator('#board.orientation-black').count(), 1);
    await screenshot(page, 'mock-shared-black');
    await page.context().close();
  });

  test('in an open game the page passes straight to the next seat', async () => {
    const { page } = await sharedGame(false);
    await page.locator('main.game[data-seat="0"]').waitFor();
    assert.equal(await page.locator('.privacy').isVisible(), false);
    assert.equal(await page.locator('.player .seat .kind').first().textContent(), 'on this device');
    await clickMove(page, 'e2', 'e4');
    await page.locator('main.game[data-seat="1"]').waitFor();
    assert.equal(await page.locator('.privacy').isVisible(), false);
    assert.equal(await page.locator('#board.orientation-black').count(), 1);
    await page.context().close();
  });
});

describe('the lobby', () => {
  test('lists the variants with badges and builds the options and seats form', async () => {
    const server = new MockServer([demoVariant(true), { ...demoVariant(false), name: 'plain', title: 'Plain', experimental: false, options: [] }], gameInfo('g3', []), {});
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await server.install(context);
    let created: unknown;
    await context.route(`${ORIGIN}/api/games`, route => {
      created = JSON.parse(route.request().postData() ?? '{}');
      return route.fulfill({
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify({
          id: 'g9',
          variant: 'demo',
          seats: [
            { seat: 0, name: 'White', kind: 'human', token: 'mine', invite: '/play/g9?token=mine' },
            { seat: 1, name: 'Black', kind: 'open', token: 'friend', invite: '/play/g9?token=friend' },
          ],
        }),
      });
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/`);
    await page.locator('button.variant[data-variant="demo"]').waitFor();
    // Both two-player games: the experimental one after the other (issue 26, ui-table.test.ts).
    assert.deepEqual(await page.locator('button.variant .variant-title').allTextContents(), ['Plain', 'Demo Kitexperimentalhidden information']);
    assert.equal(await page.locator('[data-option]').count(), 3);
    assert.deepEqual(await page.locator('select[data-seat="1"] option').allTextContents(), [
      'Me',
      'Computer (random moves)',
      'Computer (easy)',
      'Computer (medium)',
      'Computer (hard)',
      'Computer (strongest)',
      'Invite a friend',
      'Another person on this device',
    ]);
    assert.equal(await page.locator('select[data-seat="1"]').inputValue(), 'computer:level4', 'medium by default');
    await page.locator('[data-option="coins"]').fill('6');
    await page.locator('select[data-seat="1"]').selectOption('open');
    await screenshot(page, 'mock-lobby');
    await page.locator('#create').click();
    await page.waitForURL(/\/play\/g9/);
    assert.deepEqual(created, { variant: 'demo', options: { coins: 6 }, seats: ['human', 'open'] });
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('chesskit:game:g9'))) ?? '{}');
    assert.deepEqual(stored.tokens, { 0: 'mine' });
    assert.deepEqual(stored.invites, [{ seat: 1, name: 'Black', path: '/play/g9?token=friend' }]);
    await context.close();
  });
});

describe('computer levels, rules and invited friends', () => {
  test('the lobby sends the chosen computer level, and the game page names it', async () => {
    const server = new MockServer([demoVariant(false)], gameInfo('g5', ['human', 'computer:level6']), { t0: 0 });
    server.views.set('t0', { version: 0, view: { ...richView(), actions: [] } });
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await server.install(context);
    let created: { seats?: string[] } = {};
    await context.route(`${ORIGIN}/api/games`, route => {
      created = JSON.parse(route.request().postData() ?? '{}');
      return route.fulfill({
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify({
          id: 'g5',
          variant: 'demo',
          seats: [
            { seat: 0, name: 'White', kind: 'human', token: 't0', invite: '/play/g5?token=t0' },
            { seat: 1, name: 'Black', kind: 'computer:level6' },
          ],
        }),
      });
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/`);
    await page.locator('select[data-seat="1"]').selectOption('computer:level6');
    await page.locator('#create').click();
    await page.waitForURL(/\/play\/g5/);
    assert.deepEqual(created.seats, ['human', 'computer:level6']);
    await page.locator('main.game[data-version="0"]').waitFor();
    assert.equal(await page.locator('.player.top .kind').textContent(), 'computer (hard)');
    await context.close();
  });

  test('the rules panel shows the rules document rendered from markdown, with its HTML escaped', async () => {
    const { page, server } = await richGame();
    server.rules.demo = [
      '# Demo Kit',
      '',
      '## Setup',
      '',
      'Place **every** piece; *then* play `e2e4`.',
      '',
      '| action | meaning |',
      '| --- | --- |',
      '| `done` | end the turn |',
      '',
      '<script>window.pwned = true</script>',
      '<img src="x" onerror="window.pwned = true">',
    ].join('\n');
    const rules = page.locator('details.rules');
    assert.equal(await rules.locator('.rules-doc').textContent(), '', 'fetched only when opened');
    const requests = watchRequests(page);
    await rules.locator('summary').click();
    await rules.locator('.rules-doc h2').waitFor();
    assert.equal(await rules.locator('.rules-doc h2').textContent(), 'Setup');
    assert.equal(await rules.locator('.rules-doc h1').count(), 0, 'the title is the panel’s own');
    assert.equal(await rules.locator('.rules-doc strong').textContent(), 'every');
    assert.deepEqual(await rules.locator('.rules-doc td').allTextContents(), ['done', 'end the turn']);
    assert.equal(await rules.locator('.rules-doc script, .rules-doc img').count(), 0, 'no element from the document’s HTML');
    assert.match((await rules.locator('.rules-doc').textContent()) ?? '', /<script>window\.pwned = true<\/script>/);
    await requests.quiet(); // an <img> let through would have asked for "x" and failed by now
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned), undefined);
    await screenshot(page, 'mock-rules');

    // A new view redraws the panel: the rules stay open, with their document.
    server.push('t0', 6, richView());
    await page.locator('main.game[data-version="6"]').waitFor();
    assert.equal(await page.locator('details.rules[open] .rules-doc h2').textContent(), 'Setup');
    await page.context().close();
  });

  test('a variant without a rules document says so', async () => {
    const { page } = await richGame();
    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc .note').waitFor();
    assert.equal(await page.locator('details.rules .rules-doc').textContent(), 'This game has no rules document yet.');
    await page.context().close();
  });

  test('the invite link gives way to "Black has joined" once the friend comes', async () => {
    const info = gameInfo('g6', ['human', 'open']);
    info.seats[0].joined = true;
    info.seats[1].joined = false;
    const server = new MockServer([demoVariant(false)], info, { t0: 0 });
    server.views.set('t0', { version: 0, view: { ...richView(), actions: [] } });
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem('chesskit:game:g6')) {
        const invites = [{ seat: 1, name: 'Black', path: '/play/g6?token=friend' }];
        localStorage.setItem('chesskit:game:g6', JSON.stringify({ tokens: { 0: 't0' }, invites }));
      }
    });
    await server.install(context);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/play/g6`);
    await page.locator('.invite-link[data-seat="1"]').waitFor();
    assert.equal(await page.locator('.player.top .kind').textContent(), 'invited friend');
    assert.equal(await page.locator('.invites .joined').count(), 0);
    await screenshot(page, 'mock-invite-waiting');

    info.seats[1].joined = true; // the friend opened the link; the page asks again every few seconds
    await page.locator('.invites .joined[data-seat="1"]').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.invites .joined').textContent(), 'Black has joined');
    assert.equal(await page.locator('.invite-link').count(), 0, 'no invite link for a joined seat');
    assert.equal(await page.locator('.invites h3').count(), 0);
    assert.equal(await page.locator('.player.top .kind').textContent(), 'friend');
    await screenshot(page, 'mock-invite-joined');
    await context.close();
  });
});
