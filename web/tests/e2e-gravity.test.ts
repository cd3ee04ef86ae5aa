// Gravity Chess in the browser against the real server (`chesskit serve`),
// from the lobby, against the computer: the two decks face down and the
// flipped card face up as card zones, White's first turn (only the
// addition: a click on the top row), then turns where every active piece
// falls one at a time (moves on the board; a piece that cannot move is
// clicked to stay) until a stacked piece wears its badge; the score table
// and the rules panel. Screenshots go to web/test-results/e2e-gravity-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  clickMove,
  clickSquare,
  createFromLobby,
  logEntries,
  pageVersionAfter,
  screenshot,
  seatView,
  seatViewResponse,
  requireVariant,
  serverAndBrowser,
  waitForLog,
} from './harness.ts';
import type { View } from '../src/types.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string) => seatView(setup.server.url, page, id, 0);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

const zoneCards = (page: Page, name: string) => page.locator(`section.zones [data-zone="${name}"] .card`);

/** Take one of White's actions on the board, as a player would. */
async function playOne(page: Page, view: View): Promise<string> {
  const move = view.actions.find(a => a.from && a.to);
  if (move) {
    await clickMove(page, move.from!, move.to!);
    return move.text;
  }
  const onSquare = view.actions.find(a => a.square)!;
  await clickSquare(page, onSquare.square!);
  return onSquare.text;
}

describe('gravity', () => {
  test('decks, the flip, falling pieces one at a time, stacked pieces', async () => {
    requireVariant(setup, 'gravity');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));

    const id = await createFromLobby(page, setup.server.url, 'gravity', ['me', 'computer:random']);
    await myTurn(page);
    let view = await myView(page, id);
    const zone = (name: string) => view.zones!.find(z => z.name === name)!;
    assert.equal(zone("White holds black's cards").hidden, 11, 'White has flipped one of its twelve');
    assert.equal(zone("Black holds white's cards").hidden, 12);
    assert.equal(zone('Flipped card').cards.length, 1, 'the flipped card, face up');
    assert.equal(await zoneCards(page, 'Flipped card').count(), 1, 'drawn as a card');
    assert.ok(view.actions.every(a => /^[PNBRQK]@[a-h]8$/.test(a.text)), 'the first turn only adds, on the top row');
    assert.equal(view.actions.length, 8);
    await screenshot(page, 'e2e-gravity-start');

    // White's first turn: click a square of the top row to add the black piece.
    await clickSquare(page, 'd8');
    // The page may still say "your turn" from before the click: wait for
    // the server to have the computer's turn done and White to act again.
    for (let looks = 0; looks < 300; looks++) {
      const seen = await seatViewResponse(setup.server.url, page, id, 0);
      view = seen.view;
      if (view.to_act.includes(0) && view.log.some(l => l.text.startsWith('Adds the black'))) break;
      await pageVersionAfter(page, seen.version);
    }
    await myTurn(page);
    assert.ok(view.log.some(l => l.text.startsWith('Adds the black')), view.log.map(l => l.text).join(' | '));
    assert.ok(view.log.some(l => l.seat === 1 && l.text.startsWith('Flips')), 'the computer flipped for White');
    assert.ok(
      view.board!.squares.some(s => s.piece?.colour === 'white'),
      'the computer added a white piece on the top row',
    );

    // Play on until some piece is stacked (a badge on the board), at least
    // one turn: the computer's addition may already have stacked a piece.
    let played = 0;
    const stacked = async () => (await page.locator('#board .marker-stacked').count()) > 0;
    for (let turn = 0; turn < 14 && (turn === 0 || !(await stacked())); turn++) {
      for (let step = 0; step < 12; step++) {
        view = await myView(page, id);
        if (view.outcome || !view.to_act.includes(0)) break;
        const before = view.log.length;
        const text = await playOne(page, view);
        played++;
        await waitForLog(page, before + 1).catch(() => assert.fail(`the action ${text} was not taken`));
        if (text.includes('@')) break;
      }
      view = await myView(page, id);
      if (view.outcome) break;
      await myTurn(page);
    }
    assert.ok(played > 0, 'White moved pieces');
    view = await myView(page, id);
    assert.ok(
      view.board!.squares.some(s => s.markers?.some(m => m.kind === 'stacked')),
      'a stacked piece after a few turns',
    );
    assert.ok((await page.locator('#board .marker-stacked').count()) > 0, 'drawn on the board');
    assert.match((await page.locator('section.tables').textContent()) ?? '', /Stacked points/);
    console.log(`gravity: log ${(await logEntries(page)).slice(-8).join(' | ')}`);
    await screenshot(page, 'e2e-gravity-play');

    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    assert.deepEqual(headings.slice(0, 2), ['The rules in our words', 'Rulings']);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /stacked/);
    await context.close();
  });
});
