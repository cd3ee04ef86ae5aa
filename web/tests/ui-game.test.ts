// Issue 8 in the browser, against the stand-in server (tests/mock.ts): what
// just happened said beside the board, the prompt in words, the table
// actions (resign, draw, abort). Each at 1366x800 and 390x844; screenshots
// go to web/test-results/ui-*.png. (The end of a game, the shared device,
// the reconnection, the favicon and the lobby: ui-game-end.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ActionInfo } from '../src/types.ts';
import { browserOfFile, screenshot } from './harness.ts';
import { MockServer, ORIGIN, demoVariant, gameInfo } from './mock.ts';
import { DESKTOP, SCREENS, type Screen, assertInSight, midgame, move, newPage as newGamePage } from './ui-page.ts';

const chromium = browserOfFile();

const newPage = (screen: Screen, server: MockServer, store?: { id: string; value: unknown }) => newGamePage(chromium.browser, screen, server, store);

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
