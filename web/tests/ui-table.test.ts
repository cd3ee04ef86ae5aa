// Issue 26, the table a player sees, against the real `chesskit serve`: the
// board follows a layout change before taking a click, the game's end says
// why, the move counter counts moves, the lobby, Neighbour's "Stop adding"
// asked first, and a rematch that reaches every seat. Each check runs at a
// desktop's width (1366x800) and a phone's (390x844); screenshots go to
// web/test-results/ui-table-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, createFromLobby, screenshot, seatView, serverAndBrowser, settledPieceAt, skipPageTime, waitForLog } from './harness.ts';
import type { GameInfo } from '../src/types.ts';

const setup = serverAndBrowser();

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** A fresh page at `viewport` (a phone's is touch-enabled), with the page's errors in the test's output. */
async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const phone = viewport.width < 700;
  const context = await setup.browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return page;
}

/** Seat `seat`'s token of game `id`, as the page keeps it. */
async function tokenOf(page: Page, id: string, seat: number): Promise<string> {
  return page.evaluate(
    ([gameId, s]) => JSON.parse(localStorage.getItem(`chesskit:game:${gameId}`) ?? '{}').tokens?.[s],
    [id, String(seat)],
  );
}

/** Take `action` for `seat` through the API (the page hears of it over its socket); throws if refused. */
async function actFor(page: Page, id: string, seat: number, action: string): Promise<void> {
  const token = await tokenOf(page, id, seat);
  const response = await fetch(`${setup.server.url}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, action }),
  });
  if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`);
}

const summary = async (id: string): Promise<GameInfo> => (await fetch(`${setup.server.url}/api/games/${id}`)).json();

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

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
      const page = await newPage(viewport);
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
      const page = await newPage(viewport);
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
      assert.equal(await page.locator('#board square.checker').count(), 1, 'the mating queen is marked');
      assert.ok((await page.locator('#board square.check').count()) >= 1, 'the mated king is marked');
      assert.ok((await page.locator('#board svg line').count()) > 0, 'an arrow from the queen to the king');
      await screenshot(page, `ui-table-end-reason-${name}`);
      await page.context().close();
    });

    test(`the move counter counts moves, not table actions, and each line of the move list jumps there (${name})`, async () => {
      const page = await newPage(viewport);
      const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'local']);
      // Five actions, three moves: e4, e5, a draw offered and declined, Nf3.
      for (const [seat, action] of [[0, 'e4'], [1, 'e5'], [0, 'offer draw'], [1, 'decline draw'], [0, 'Nf3']] as const) {
        await actFor(page, id, seat, action);
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

    test(`the lobby: your games on top, games grouped by how many play, options in words, a friend who came is a friend (${name})`, async () => {
      const page = await newPage(viewport);
      await page.clock.install(); // the poll's pause is skipped below, not waited out
      const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'open']);
      const link = await page.locator('.invite-link[data-seat="1"]').inputValue();
      const friend = await newPage(viewport);
      await friend.goto(link);
      await friend.locator('main.game[data-seat="1"]').waitFor();
      // The friend came: at the page's next poll the seat says so.
      const friendShown = page.locator('.player .seat[data-seat="1"] .kind', { hasText: /^friend$/ });
      await skipPageTime(page, async () => (await friendShown.count()) > 0);
      await friendShown.waitFor({ timeout: 10_000 });
      await friend.context().close();

      await page.goto(`${setup.server.url}/`);
      const mine = page.locator(`.my-game[data-game="${id}"]`);
      await mine.locator('.my-when').waitFor();
      assert.equal(await mine.locator('.my-opponents').textContent(), 'against Black (friend)');
      const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
      assert.ok((await top('.my-games')) < (await top('.variants')), '"Your games" comes before the list of games');
      const headings = await page.locator('.variant-group h3').allTextContents();
      assert.deepEqual(headings, ['Solitaires: one player', 'Two players', 'Four players']);
      const inGroup = (players: number) =>
        page.locator(`.variant-group[data-players="${players}"] button.variant`).evaluateAll(els => els.map(e => e.getAttribute('data-variant')));
      assert.ok((await inGroup(1)).includes('parade'));
      assert.ok((await inGroup(4)).includes('crowded-house'));
      const two = await inGroup(2);
      assert.equal(two[0], 'chess', 'the two-player games, the settled ones first');
      const experimental = await page
        .locator('.variant-group[data-players="2"] button.variant')
        .evaluateAll(els => els.map(e => !!e.querySelector('.badge:not(.secret)')));
      assert.deepEqual(experimental, [...experimental].sort(), 'the experimental games after the others, each marked');
      assert.equal(await page.locator('button.variant[data-variant="golf"] .variant-players').textContent(), '1 to 8 players');

      await page.locator('button.variant[data-variant="golf"]').click();
      assert.equal(await page.locator('label[for="opt-players"]').textContent(), 'Number of players');
      assert.equal(await page.locator('label[for="opt-max_cards"]').textContent(), 'Most cards dealt for a hole');
      await page.locator('button.variant[data-variant="cooperative2"]').click();
      assert.doesNotMatch((await page.locator('section.new-game').textContent()) ?? '', /players=1/);
      await screenshot(page, `ui-table-lobby-${name}`);
      await page.context().close();
    });

    test(`Neighbour: "Stop adding" says what stopping means and asks first (${name})`, async () => {
      const page = await newPage(viewport);
      const id = await createFromLobby(page, setup.server.url, 'neighbour', ['me']);
      await page.locator('button.action[data-action="add"]').click();
      await page.locator('main.game[data-version="1"]').waitFor();
      await page.locator('button.action[data-action="stop"]').click();
      const ask = page.locator('section.actions .confirm');
      await ask.waitFor();
      assert.match((await ask.textContent()) ?? '', /Stop adding with 1 piece on the board\? No piece is added again/);
      assert.match((await ask.textContent()) ?? '', /ends the game at once with 0 points: no piece can move/);
      await screenshot(page, `ui-table-neighbour-stop-${name}`);
      assert.equal((await seatView(setup.server.url, page, id)).outcome, undefined, 'nothing sent yet');
      await page.locator('button[data-cancel="stop"]').click();
      assert.equal(await ask.count(), 0);
      await page.locator('button.action[data-action="stop"]').click();
      await page.locator('button[data-confirm="stop"]').click();
      await page.locator('.status .outcome').waitFor();
      assert.equal(await page.locator('.status .outcome-reason').textContent(), 'No piece can move.');
      await page.context().close();
    });
  }

  test('a rematch reaches everyone at the table: each seat takes its own seat, colours swapped (desktop and phone)', async () => {
    const mine = await newPage(WIDTHS[0].viewport);
    const id = await createFromLobby(mine, setup.server.url, 'chess', ['me', 'open']);
    const link = await mine.locator('.invite-link[data-seat="1"]').inputValue();
    const friend = await newPage(WIDTHS[1].viewport);
    await friend.goto(link);
    await friend.locator('main.game[data-seat="1"]').waitFor();
    await actFor(mine, id, 0, 'e4');
    // Resign once the page has e4, so the end is what the friend's page hears next.
    await waitForLog(mine, 1);
    await mine.locator('button[data-session="resign"]').click();
    await mine.locator('button[data-confirm="resign"]').click();
    await friend.locator('.status .outcome').waitFor();

    await mine.locator('#rematch').click();
    await mine.waitForURL(url => url.pathname.startsWith('/play/') && !url.pathname.endsWith(id));
    await mine.locator('main.game[data-seat="1"]').waitFor();
    const next = new URL(mine.url()).pathname.split('/').pop()!;
    assert.equal((await summary(id)).rematch, next);

    // The friend's page offers the rematch, and takes the friend to their own seat in it.
    await friend.locator('section.end[data-rematch="started"] #rematch').waitFor({ timeout: 15_000 });
    assert.equal(await friend.locator('#rematch').textContent(), 'Join the rematch');
    await screenshot(friend, 'ui-table-rematch-offered-phone');
    await friend.locator('#rematch').click();
    await friend.waitForURL(url => url.pathname.endsWith(next));
    await friend.locator('main.game[data-seat="0"]').waitFor();
    await screenshot(friend, 'ui-table-rematch-joined-phone');
    await screenshot(mine, 'ui-table-rematch-desktop');

    // Each page holds its own seat's token only.
    const mineTokens = await mine.evaluate(g => JSON.parse(localStorage.getItem(`chesskit:game:${g}`) ?? '{}').tokens, next);
    const friendTokens = await friend.evaluate(g => JSON.parse(localStorage.getItem(`chesskit:game:${g}`) ?? '{}').tokens, next);
    assert.deepEqual(Object.keys(mineTokens), ['1']);
    assert.deepEqual(Object.keys(friendTokens), ['0']);
    await friend.locator('.status[data-my-turn="yes"]').waitFor();
    await mine.context().close();
    await friend.context().close();
  });
});
