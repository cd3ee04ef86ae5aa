// Crowded House in the browser against the real server (`chesskit serve`),
// from the lobby: four seats, me as King-side White and the computer in the
// three others (the lobby's default), the tinted half of the player to
// move, the computers' three answers (a move refused for its half is
// checked in the CLI tests), and the same game hot-seat on one device,
// with the book's Bf1-c4 for Queen-side White. Screenshots go to
// web/test-results/e2e-crowded-house-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  clickMove,
  createFromLobby,
  drawnCount,
  logEntries,
  screenshot,
  seatView,
  requireVariant,
  serverAndBrowser,
  waitForLog,
} from './harness.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string, seat = 0) => seatView(setup.server.url, page, id, seat);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

/**
 * Click a move until the log shows it: the board may be redrawn between
 * the two clicks while the computers' seats report in after the game
 * starts, which drops the selection.
 */
async function moveUntilLogged(page: Page, from: string, to: string, entries: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await clickMove(page, from, to);
    try {
      await waitForLog(page, entries, 5_000);
      return;
    } catch (e) {
      if (attempt === 2) throw e;
    }
  }
}

describe('crowded house', () => {
  test('four seats from the lobby: I play king-side White, the computer the other three', async () => {
    requireVariant(setup, 'crowded-house');
    const info = setup.variants.find(v => v.name === 'crowded-house')!;
    assert.deepEqual(info.seats, ['King-side White', 'King-side Black', 'Queen-side White', 'Queen-side Black']);
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));

    await page.goto(`${setup.server.url}/`);
    await page.locator('button.variant[data-variant="crowded-house"]').click();
    // The lobby's default: me in seat 0, the computer in the others.
    assert.equal(await page.locator('select[data-seat="0"]').inputValue(), 'me');
    for (const seat of [1, 2, 3]) {
      assert.match(await page.locator(`select[data-seat="${seat}"]`).inputValue(), /^computer/);
    }
    const id = await createFromLobby(page, setup.server.url, 'crowded-house', [
      'me',
      'computer:level2',
      'computer:random',
      'computer:level2',
    ]);
    await myTurn(page);
    // My half, e to h, is tinted: 32 squares.
    assert.equal(await drawnCount(page, '#board .marker-zone', 32), 32);
    const view = await myView(page, id);
    assert.equal(view.prompt, 'King-side White to move (files e-h)');
    assert.ok(view.board!.squares.find(s => s.square === 'e2')!.markers?.some(m => m.kind === 'zone'));
    assert.ok(!view.board!.squares.find(s => s.square === 'd2')!.markers?.length, 'd2 is the queen side');

    await screenshot(page, 'e2e-crowded-house-my-half');
    await moveUntilLogged(page, 'e2', 'e4', 1);
    // My move and the three computers' answers, then my turn again.
    await waitForLog(page, 4, 40_000);
    await myTurn(page);
    const log = await logEntries(page);
    console.log(`crowded-house: log ${log.join(' | ')}`);
    const after = await myView(page, id);
    assert.deepEqual(
      after.log.slice(0, 4).map(e => e.seat),
      [0, 1, 2, 3],
      'king-side White, king-side Black, queen-side White, queen-side Black',
    );
    assert.equal(after.to_act[0], 0);
    assert.match((await page.locator('section.tables').textContent()) ?? '', /Order of play/);
    await screenshot(page, 'e2e-crowded-house-four-seats');

    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    assert.deepEqual(headings.slice(0, 2), ['The rules in our words', 'Rulings']);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /starts\*\*|starts/);
    await context.close();
  });

  test('hot-seat: four people on one device, the book\'s Bf1-c4 for queen-side White', async () => {
    requireVariant(setup, 'crowded-house');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'crowded-house', ['me', 'local', 'local', 'local']);
    const moves: [string, string][] = [
      ['e2', 'e4'],
      ['e7', 'e5'],
      ['f1', 'c4'],
      ['b8', 'c6'],
    ];
    for (const [i, [from, to]] of moves.entries()) {
      await myTurn(page);
      // Pass any hand-over screen between the seats.
      const ready = page.locator('.privacy:not([hidden]) button');
      if (await ready.count()) await ready.first().click();
      await moveUntilLogged(page, from, to, i + 1);
    }
    const view = await myView(page, id, 2);
    assert.deepEqual(
      view.log.map(e => e.text),
      ['e2-e4', 'e7-e5', 'Bf1-c4', 'Nb8-c6'],
    );
    assert.equal(view.to_act[0], 0, 'king-side White again');
    await screenshot(page, 'e2e-crowded-house-hot-seat');
    await context.close();
  });
});
