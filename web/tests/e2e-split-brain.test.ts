// Split-Brain Chess in the browser against the real server (`chesskit
// serve`), from the lobby: four seats, me as king-side White and the
// computer in the other three. The 6x6 is drawn on the 8x8 with the outer
// ring greyed out, the checker in its corner; I circle by clicking a
// square (no list of 36 circles), my circle is ringed for me only, the
// computer partner circles, the circles are revealed and a move is made;
// the computers answer for Black, the checker slides, and I become the
// mover. Screenshots go to web/test-results/e2e-split-brain-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { View } from '../src/types.ts';
import {
  clickMove,
  clickSquare,
  createFromLobby,
  drawnCount,
  logEntries,
  screenshot,
  pageVersionAfter,
  seatView,
  seatViewResponse,
  requireVariant,
  serverAndBrowser,
  waitForLog,
} from './harness.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string, seat = 0) => seatView(setup.server.url, page, id, seat);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

/** Act once when it is my turn: circle by a click, pick a tied square by a click, keep by a button, pick a move by clicks. */
async function actOnce(page: Page, view: View, circle: string): Promise<void> {
  const actions = view.actions;
  const circleHere = actions.find(a => a.text === `circle ${circle}`);
  if (circleHere) return clickSquare(page, circle);
  const square = actions.find(a => a.square);
  if (square) return clickSquare(page, square.square!);
  const move = actions.find(a => a.from && a.to);
  if (move) return clickMove(page, move.from!, move.to!);
  await page.locator(`button.action[data-action="${actions[0].text}"]`).click();
}

describe('split-brain', () => {
  test('four seats: I circle on the board in secret, the partners make the move, the checker slides', async () => {
    requireVariant(setup, 'split-brain');
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));

    const id = await createFromLobby(page, setup.server.url, 'split-brain', [
      'me',
      'computer:random',
      'computer:random',
      'computer:random',
    ]);
    await myTurn(page);

    // The outer ring is off the board in play; the checker stands on h8.
    assert.equal(await drawnCount(page, '#board square.inactive', 28), 28, 'the ring around b2-g7 is greyed');
    await page.locator('#board .marker-checker').waitFor();
    const start = await myView(page, id);
    assert.equal(start.board!.active!.length, 36);
    assert.match(start.prompt ?? '', /chooser/);
    assert.equal(start.actions.length, 36, 'any square of the grid may be circled');
    assert.equal(await page.locator('.action-picker').count(), 0, 'circles are clicked on the board, not picked from a list');
    assert.equal(await page.locator('button.action[data-action^="circle"]').count(), 0);
    // No action on the outer ring: a click there does nothing.
    await clickSquare(page, 'a1');
    assert.equal((await myView(page, id)).to_act.includes(0), true, 'still my turn after a click off the grid');
    await screenshot(page, 'e2e-split-brain-start');

    // I circle the knight c2 by clicking it.
    const before = (await logEntries(page)).length;
    await clickSquare(page, 'c2');
    await waitForLog(page, before + 1, 20_000);
    const mine = await myView(page, id);
    assert.ok(
      mine.log.some(e => /piece circle c2/.test(e.text)) || (mine.notes ?? []).some(n => /c2/.test(n)),
      'my circle is revealed with my partner’s, or noted for me alone',
    );

    // Play on until the computers have moved for Black and the checker has slid.
    for (let step = 0; step < 60; step++) {
      const { version, view } = await seatViewResponse(setup.server.url, page, id, 0);
      if (view.outcome) break;
      if (view.log.some(e => /checker slides/.test(e.text)) && view.to_act.includes(0) && /mover/.test(view.prompt ?? '')) break;
      if (!view.to_act.includes(0) || view.actions.length === 0) {
        await pageVersionAfter(page, version); // the computers have acted
        continue;
      }
      const count = (await logEntries(page)).length;
      await actOnce(page, view, /mover/.test(view.prompt ?? '') ? 'd4' : 'e3');
      await waitForLog(page, count + 1, 20_000);
    }
    const later = await myView(page, id);
    const log = later.log.map(e => e.text);
    console.log(`split-brain: log ${log.join(' | ')}`);
    assert.ok(log.some(t => /^White plays /.test(t)), 'White made a move');
    assert.ok(log.some(t => /^Black plays /.test(t)), 'Black made a move');
    assert.ok(log.some(t => /checker slides to the queen-side corner/.test(t)), 'the checker slid after Black moved');
    if (!later.outcome) {
      await page.locator('#board .marker-checker').waitFor();
      const a8 = later.board!.squares.find(s => s.square === 'a8');
      assert.ok(a8?.markers?.some(m => m.kind === 'checker'), 'the checker is in the queen-side corner');
      // I am the mover now: my circle is ringed for me only.
      await myTurn(page);
      const view = await myView(page, id);
      assert.match(view.prompt ?? '', /mover/);
      const count = (await logEntries(page)).length;
      await clickSquare(page, 'e4');
      await waitForLog(page, count + 1, 20_000);
      // My circle is ringed for me until my partner's is revealed with it.
      await page.waitForFunction(
        () => [...document.querySelectorAll('.log .entry')].some(e => /target circle e4/.test(e.textContent ?? '')) ||
          document.querySelector('#board .marker-circle') !== null,
        undefined,
        { timeout: 20_000 },
      );
    }
    await screenshot(page, 'e2e-split-brain-play');

    // The rules panel shows the rules in our words and the rulings.
    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    assert.deepEqual(headings.slice(0, 2), ['The rules in our words', 'Rulings']);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /Manhattan distance/);
    await context.close();
  });
});
