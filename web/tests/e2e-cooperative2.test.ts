// Cooperative Chess 2 in the browser against the real server (`chesskit
// serve`), from the lobby: me as White with a computer partner as Black.
// I play a card by clicking it in my hand (it joins the face-up line, drawn
// as cards), make a move on the board and end the turn; the computer
// partner plays its turn without my hand ever reaching its view, and the
// line, the piles and the score table follow. Then the solitaire
// (players=1). Screenshots go to web/test-results/e2e-cooperative2-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, createFromLobby, logEntries, screenshot, seatView, requireVariant, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

const zone = (view: { zones?: { name: string; cards: string[]; hidden: number }[] }, name: string) =>
  (view.zones ?? []).find(z => z.name === name)!;

describe('cooperative2', () => {
  test('a card, a move and the end of the turn with a computer partner; the line drawn as cards', async () => {
    const info = requireVariant(setup, 'cooperative2');
    assert.deepEqual(info.seats, ['White', 'Black']);
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'cooperative2', ['me', 'computer:random']);

    await myTurn(page);
    let view = await seatView(setup.server.url, page, id, 0);
    const hand = zone(view, 'white hand');
    assert.equal(hand.cards.length, 2, 'my two cards, face up to me');
    assert.equal(zone(view, 'black hand').hidden, 2, "my partner's hand, face down");
    assert.equal(await page.locator('[data-zone="black hand"] .card.back').count(), 2, 'drawn as card backs');
    const lineBefore = zone(view, 'face-up line').cards.length;
    await screenshot(page, 'e2e-cooperative2-start');

    // Step 1: click a card of my hand; it joins the end of the line.
    const card = hand.cards[0];
    const before = (await logEntries(page)).length;
    await page.locator(`[data-zone="white hand"] button.card.playable[data-card="${card}"]`).click();
    await waitForLog(page, before + 1);
    view = await seatView(setup.server.url, page, id, 0);
    const line = zone(view, 'face-up line').cards;
    assert.equal(line.length, lineBefore + 1);
    assert.equal(line[line.length - 1], card, 'added to the end away from the draw pile');
    assert.equal(await page.locator(`[data-zone="face-up line"] .card[data-card="${card}"]`).count(), 1, 'a card face in the line');
    assert.ok(await page.locator(`[data-zone="face-up line"] .card[data-card="${card}"]`).getAttribute('data-piece'), 'with its piece drawn');

    // Step 2: a move on the board (e2-e4 is always possible at the start).
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, before + 2);
    view = await seatView(setup.server.url, page, id, 0);
    assert.ok(view.board!.squares.some(s => s.square === 'e4' && s.piece?.role === 'pawn'));
    // No capture follows at the start: the turn ended by itself and my partner played.
    await myTurn(page);
    view = await seatView(setup.server.url, page, id, 0);
    const log = view.log.map(e => e.text).join(' | ');
    assert.match(log, /plays \S+ \(/, 'the partner played a card');
    assert.equal(zone(view, 'white hand').cards.length, 2, 'I drew back to two');
    assert.ok(view.tables?.some(tb => tb.title === 'Score'), 'the score table');
    await screenshot(page, 'e2e-cooperative2-play');

    // The rules panel.
    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    assert.equal(headings[0], 'The rules in our words');
    assert.ok(headings.includes('Rulings'), headings.join(', '));
    await context.close();
  });

  test('the solitaire: one seat, a card drawn to the line each turn', async () => {
    requireVariant(setup, 'cooperative2');
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const id = await createFromLobby(page, setup.server.url, 'cooperative2', ['me'], async p => {
      await p.locator('[data-option="players"]').fill('1');
    });
    await myTurn(page);
    const view = await seatView(setup.server.url, page, id, 0);
    assert.equal(view.seats.length, 1);
    assert.ok(zone(view, 'face-up line').cards.length >= 1, 'the first card is in the line');
    assert.ok(view.actions.some(a => a.text === 'end'));
    await page.locator('section.actions button.action[data-action="end"]').click();
    await waitForLog(page, 2);
    await screenshot(page, 'e2e-cooperative2-solitaire');
    await context.close();
  });
});
