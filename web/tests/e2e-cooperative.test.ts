// Cooperative Chess in the browser against the real server (`chesskit serve`),
// from the lobby, with a computer partner: a non-capturing move by clicking,
// then a card played by clicking it in the hand; the hand's faces, the
// partner's hand face down, the three face-up stacks and the draw pile drawn
// as cards; a question in the table chat; the rules panel.
// Screenshots go to web/test-results/e2e-cooperative-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { cardFace } from '../src/cards.ts';
import { clickMove, createFromLobby, logEntries, screenshot, seatView, requireVariant, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string) => seatView(setup.server.url, page, id);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

describe('cooperative', () => {
  test('a move and a card from the lobby with a computer partner, cards and stacks drawn, hands hidden', async () => {
    const info = requireVariant(setup, 'cooperative');
    assert.equal(info.hidden_information, true);
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'cooperative', ['me', 'computer:random']);

    // My three cards face up, my partner's three face down, the draw pile counted.
    await myTurn(page);
    let view = await myView(page, id);
    const zone = (name: string) => (view.zones ?? []).find(z => z.name === name)!;
    assert.equal(zone('White hand').cards.length, 3);
    assert.equal(zone('Black hand').cards.length, 0);
    assert.equal(zone('Black hand').hidden, 3);
    assert.equal(zone('draw pile').hidden, 26);
    for (const name of ['White discards', 'Black discards', 'captured cards']) assert.ok(zone(name), name);
    assert.equal(await page.locator('[data-zone="White hand"] .card[data-card]').count(), 3, 'my cards are drawn as cards');
    assert.equal(await page.locator('[data-zone="Black hand"] .card.back').count(), 3, "my partner's are backs");
    await screenshot(page, 'e2e-cooperative-start');

    // Step 1, a non-capturing move, by clicking.
    let before = (await logEntries(page)).length;
    await clickMove(page, 'g1', 'f3');
    await waitForLog(page, before + 1);

    // Step 2, a card: click it in my hand.
    await myTurn(page);
    view = await myView(page, id);
    const card = zone('White hand').cards[0];
    assert.ok(view.actions.some(a => a.text === `play ${card}`), 'every card in hand may be played');
    before = (await logEntries(page)).length;
    await page.locator(`[data-zone="White hand"] button.card.playable[data-card="${card}"]`).click();
    await waitForLog(page, before + 1);
    // The move list names the card by its face (web/src/cards.ts), the code kept in data-card.
    assert.match((await logEntries(page)).join(' '), new RegExp(`plays the ${cardFace(card).text}`));
    assert.ok(await page.locator(`.log .entry .card-chip[data-card="${card}"]`).count(), 'the played card drawn as a card in the move list');

    // The card is face up on my discard stack, drawn as a card; my hand is full again.
    await page.locator(`[data-zone="White discards"] .card[data-card="${card}"]`).waitFor({ timeout: 10_000 });
    view = await myView(page, id);
    assert.deepEqual(zone('White discards').cards, [card]);

    // A yes/no question for my partner in the table chat.
    const chat = page.locator('input.chat-input');
    await chat.fill('do you hold a king?');
    await chat.press('Enter');
    await page.locator('.chat-line .said', { hasText: 'do you hold a king?' }).waitFor();
    await myTurn(page);
    view = await myView(page, id);
    assert.equal(zone('White hand').cards.length, 3, 'drawn back up to three');
    await screenshot(page, 'e2e-cooperative-stacks');

    // The rules panel holds the rules in our words.
    const rules = page.locator('details.rules');
    await rules.locator('summary').click();
    await rules.locator('.rules-doc h2').first().waitFor({ timeout: 10_000 });
    assert.equal(await rules.locator('.rules-doc h2').first().textContent(), 'The rules in our words');
    await context.close();
  });
});
