// Issue 26, the table a player sees, against the real `chesskit serve`: the
// board follows a layout change before taking a click, the game's end says
// why, the move counter counts moves. Each check runs at a desktop's width
// (1366x800) and a phone's (390x844); screenshots go to
// web/test-results/ui-table-*.png. (The lobby, Neighbour's "Stop adding"
// and the rematch: ui-table-lobby.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, createFromLobby, drawnCount, screenshot, seatView, serverAndBrowser, settledPieceAt, waitForLog } from './harness.ts';
import { WIDTHS, actFor, myTurn, newPage } from './table-page.ts';

const setup = serverAndBrowser();

/**
 * Move the board down by three quarters of a square without scrolling or
 * resizing it, the way a seat bar that grows to a second line does: a
 * spacer at the end of the bar above the board. Returns once the page has
 * laid itself out again.
 */
async function growTheBarAboveTheBoard(page: Page): Promise<number> {
  const shift = await page.evaluate(() => {
    const board = document.querySelector('#board cg-board')!.getBoundingClientRect();
    const bar = document.querySelector('.board-col')!;
    const spacer = document.createElement('div');
    spacer.className = 'test-spacer';
    spacer.style.height = `${Math.round((board.height / 8) * 0.75)}px`;
    bar.prepend(spacer);
    return board.top;
  });
  await page.evaluate(() => new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const moved = await page.evaluate(() => document.querySelector('#board cg-board')!.getBoundingClientRect().top);
  return moved - shift;
}

describe('the table a player sees', () => {
  for (const { name, viewport } of WIDTHS) {
    test(`the board follows a layout change above it: a click lands on the square clicked (${name})`, async () => {
      const page = await newPage(setup, viewport);
      const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'computer:random']);
      await myTurn(page);
      const moved = await growTheBarAboveTheBoard(page);
      assert.ok(moved > 20, `the board moved down ${moved}px`);
      await clickMove(page, 'e2', 'e4');
      await waitForLog(page, 1, 5_000);
      const view = await seatView(setup.server.url, page, id);
      assert.match(view.log[0]?.text ?? '', /e4$/, 'the pawn clicked on e2 went to the square clicked, e4');
      await screenshot(page, `ui-table-geometry-${name}`);
      await page.context().close();
    });
  }

  for (const { name, viewport } of WIDTHS) {
    test(`the end says why: checkmate names the mated king and the queen that mates it, both marked (${name})`, async () => {
      const page = await newPage(setup, viewport);
      await createFromLobby(page, setup.server.url, 'chess', ['me', 'local']);
      const moves: [string, string][] = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
      for (const [i, [from, to]] of moves.entries()) {
        await myTurn(page);
        await clickMove(page, from, to);
        await waitForLog(page, i + 1);
      }
      await page.locator('.status .outcome-reason').waitFor();
      assert.equal(await page.locator('.status .outcome').textContent(), 'Black wins (checkmate)');
      assert.equal(
        await page.locator('.status .outcome-reason').textContent(),
        'Checkmate: the white king on e1 is attacked by the black queen on h4, and no move gets it out of check.',
      );
      assert.equal(await drawnCount(page, '#board square.checker', 1), 1, 'the mating queen is marked');
      assert.ok((await drawnCount(page, '#board square.check', { atLeast: 1 })) >= 1, 'the mated king is marked');
      assert.ok((await drawnCount(page, '#board svg line', { atLeast: 1 })) > 0, 'an arrow from the queen to the king');
      await screenshot(page, `ui-table-end-reason-${name}`);
      await page.context().close();
    });

    test(`the move counter counts moves, not table actions, and each line of the move list jumps there (${name})`, async () => {
      const page = await newPage(setup, viewport);
      const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'local']);
      // Five actions, three moves: e4, e5, a draw offered and declined, Nf3.
      for (const [seat, action] of [[0, 'e4'], [1, 'e5'], [0, 'offer draw'], [1, 'decline draw'], [0, 'Nf3']] as const) {
        await actFor(setup, page, id, seat, action);
      }
      await page.locator('main.game[data-version="5"]').waitFor();
      assert.equal(await page.locator('.board-bar .history-pos').textContent(), 'Move 3');
      await page.locator('.board-bar button[data-step="back"]').click();
      const note = page.locator('.history-note .history-text');
      // The note says "Loading move 2…" until the past view has come: wait for the one that says what is shown.
      await note.filter({ hasText: /^Viewing/ }).waitFor();
      assert.equal(await note.textContent(), 'Viewing move 2 of 3', 'one step back is the position after e5');
      assert.equal(await settledPieceAt(page, 'g1', 'white knight'), 'white knight', 'before Nf3');
      assert.equal(await page.locator('.log button.entry[aria-current]').textContent(), 'e5');

      await page.locator('.log button.entry', { hasText: /^e4$/ }).click();
      await note.filter({ hasText: 'Viewing move 1 of 3' }).waitFor();
      assert.equal(await settledPieceAt(page, 'e7', 'black pawn'), 'black pawn', 'after 1. e4, before e5');
      assert.equal(await settledPieceAt(page, 'e4', 'white pawn'), 'white pawn');
      await screenshot(page, `ui-table-move-list-${name}`);
      await page.locator('.log button.entry', { hasText: 'Nf3' }).click();
      await page.locator('.board-bar .history-pos').waitFor();
      assert.equal(await page.locator('.history-note .history-text').count(), 0, 'the last move is the game as it is');
      await page.context().close();
    });
  }
});
