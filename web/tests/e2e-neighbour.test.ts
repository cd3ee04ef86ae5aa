// Neighbour Chess Solitaire in the browser against the real server
// (`chesskit serve`), from the lobby, one seat: the two decks drawn as
// face-down card piles and their discards as cards, pieces added with the
// "Add a piece" button (a taken target offers its landing squares on the
// board), then "Stop adding" and borrowed moves clicked on the board until
// the game ends; then "Could this deal have been won?" and the solver's
// answer in words. Screenshots go to web/test-results/e2e-neighbour-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  clickMove,
  clickSquare,
  createFromLobby,
  drawnCount,
  screenshot,
  seatView,
  requireVariant,
  serverAndBrowser,
} from './harness.ts';

const setup = serverAndBrowser();

const version = (page: Page) => page.locator('main.game').getAttribute('data-version');

/** Do something on the page and wait for the game to move on. */
async function acting(page: Page, what: () => Promise<void>): Promise<void> {
  const before = await version(page);
  await what();
  await page.waitForFunction(v => document.querySelector('main.game')?.getAttribute('data-version') !== v, before, {
    timeout: 30_000,
  });
}

describe('neighbour', () => {
  test('add pieces from the decks, stop, move with borrowed moves to the end', async () => {
    requireVariant(setup, 'neighbour');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'neighbour', ['me']);
    const url = setup.server.url;

    // The decks at the start: 16 and 20 cards face down, nothing flipped.
    await page.locator('.zone[data-zone="Pieces deck"] .card.back .count').waitFor();
    assert.equal(await page.locator('.zone[data-zone="Pieces deck"] .count').textContent(), '16');
    assert.equal(await page.locator('.zone[data-zone="Positions deck"] .count').textContent(), '20');
    assert.equal(await page.locator('.zone[data-zone="Pieces discard"] .card').count(), 0);

    let screenshotTaken = false;
    for (let step = 0; step < 60; step++) {
      const view = await seatView(url, page, id);
      if (view.outcome) break;
      const texts = view.actions.map(a => a.text);
      const pieces = view.board!.squares.filter(s => s.piece).length;
      const place = view.actions.find(a => a.text.startsWith('place '));
      const move = view.actions.find(a => a.from && a.to);
      if (place) {
        await page.locator('#board .marker-chosen').waitFor();
        await acting(page, () => clickSquare(page, place.square!));
      } else if (texts.includes('add') && pieces < 6) {
        await acting(page, () => page.locator('button.action[data-action="add"]').click());
        const after = await seatView(url, page, id);
        const flipped = after.zones!.find(z => z.name === 'Pieces discard')!.cards;
        const drawn = await page.locator('.zone[data-zone="Pieces discard"] [data-card]').evaluateAll(els =>
          els.map(e => e.getAttribute('data-card')),
        );
        assert.deepEqual(drawn, flipped, 'the flipped piece cards are drawn face up');
      } else if (texts.includes('stop')) {
        await screenshot(page, 'e2e-neighbour-added');
        // Stopping is for good, so the page asks first (ui-table.test.ts checks what it says).
        await page.locator('button.action[data-action="stop"]').click();
        await acting(page, () => page.locator('button[data-confirm="stop"]').click());
      } else if (move) {
        if (!screenshotTaken) {
          await screenshot(page, 'e2e-neighbour-moving');
          screenshotTaken = true;
        }
        await acting(page, () => clickMove(page, move.from!, move.to!));
      } else {
        assert.fail(`no action to take: ${texts.join(', ')}`);
      }
    }
    const end = await seatView(url, page, id);
    assert.ok(end.outcome, 'the game ended');
    const piecesOnBoard = end.board!.squares.filter(s => s.piece).length;
    assert.ok(piecesOnBoard >= 2, `${piecesOnBoard} pieces were added`);
    assert.equal(await drawnCount(page, '#board piece:not(.ghost):not(.fading)', piecesOnBoard), piecesOnBoard, 'every piece is drawn on the board');
    const left = end.zones!.filter(z => z.name.endsWith('deck')).reduce((n, z) => n + z.hidden, 0);
    const spent = end.zones!.find(z => z.name === 'Spent')!.hidden;
    assert.equal(left + spent + 2 * piecesOnBoard, 36, 'every card is in a pile');
    if (end.outcome.winners.length) assert.deepEqual(end.outcome.scores, [left], 'the score is the cards left');
    else {
      assert.deepEqual(end.outcome.scores, [0]);
      assert.match((await page.locator('div.outcome').textContent()) ?? '', /Player lost/);
    }
    console.log(`neighbour: ${end.outcome.reason}, scores ${JSON.stringify(end.outcome.scores)}`);
    await screenshot(page, 'e2e-neighbour-end');

    // "Could this deal have been won?" A failed request says why, and the question can be asked again.
    const ask = page.locator('section.end button#analysis');
    assert.equal(await ask.textContent(), 'Could this deal have been won?');
    const analysisPath = `**/api/games/${id}/analysis`;
    await page.route(analysisPath, route =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the server is busy' }) }),
    );
    await ask.click();
    const failed = page.locator('section.end .analysis p.error');
    await failed.waitFor();
    assert.equal(await failed.textContent(), 'The deal could not be analysed: the server is busy');
    await page.unroute(analysisPath);
    // Asked again: the page says it is thinking (the answer is held back until it has) ...
    let release!: () => void;
    const held = new Promise<void>(ok => (release = ok));
    await page.route(analysisPath, async route => {
      await held;
      await route.continue();
    });
    await ask.click();
    await page.locator('section.end .analysis p.thinking').waitFor();
    assert.equal(await page.locator('section.end .analysis p.thinking').textContent(), 'Thinking… the solver is searching this deal.');
    assert.ok(await ask.isDisabled(), 'one question at a time');
    assert.equal(await failed.count(), 0, 'the old error is gone');
    await screenshot(page, 'e2e-neighbour-thinking');
    release();
    // ... then shows the solver's words, the server's answer for this deal.
    const answer = page.locator('section.end .analysis p.answer');
    await answer.waitFor({ timeout: 120_000 });
    const analysis = await (await fetch(`${url}/api/games/${id}/analysis`)).json();
    assert.equal(await answer.textContent(), analysis.words);
    assert.match(
      analysis.words,
      /^(Best score \d+, proven|Score \d+, the best found within the search limit|No winning line exists|No winning line found within the search limit)/,
    );
    if (analysis.proven && end.outcome.winners.length) assert.ok(analysis.score >= end.outcome.scores![0], 'the proven best is no worse than the game');
    assert.equal(await ask.count(), 0, 'answered, the question goes');
    console.log(`neighbour analysis: ${analysis.words}`);
    await screenshot(page, 'e2e-neighbour-analysis');

    // The rules panel: the rules in our words and the rulings.
    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    assert.deepEqual(headings.slice(0, 2), ['The rules in our words', 'Rulings']);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /neighbour of\s+its own colour/);
    await context.close();
  });
});
