// Parade Chess Solitaire in the browser against the real server (`chesskit
// serve`), from the lobby, alone: the laid-out cards face up and the hand
// face down as card zones, an order given on the board (the ordered piece
// clicked, then its new square; a chooser when several pieces could give
// it), an added piece from the Actions button, the card piles updated,
// and the rules panel. Screenshots go to web/test-results/e2e-parade-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, createFromLobby, logEntries, screenshot, requireVariant, serverAndBrowser, waitForLog, seatView } from './harness.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string) => seatView(setup.server.url, page, id, 0);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 20_000 });

const zoneCards = (page: Page, name: string) => page.locator(`section.zones [data-zone="${name}"] .card`);

describe('parade', () => {
  test('an order on the board, then an added piece; the piles follow', async () => {
    requireVariant(setup, 'parade');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));

    const id = await createFromLobby(page, setup.server.url, 'parade', ['me']);
    await myTurn(page);
    let view = await myView(page, id);
    assert.equal(view.seats.length, 1, 'one seat');
    const zone = (name: string) => view.zones!.find(z => z.name === name)!;
    assert.equal(zone('discard (face up)').cards.length, 8, 'the laid-out pile, face up');
    assert.equal(zone('hand').hidden, 8, 'the hand, face down');
    assert.equal(await zoneCards(page, 'discard (face up)').count(), 8, 'eight card faces drawn');
    assert.equal(view.board!.squares.filter(s => s.piece).length, 8, 'eight pieces laid out');
    await screenshot(page, 'e2e-parade-start');

    // An order, given on the board.
    const order = view.actions.find(a => a.from && a.to)!;
    assert.ok(order, 'some piece can order another');
    const sharing = view.actions.filter(a => a.from === order.from && a.to === order.to);
    await clickMove(page, order.from!, order.to!);
    if (sharing.length > 1) await page.locator(`.picker button[data-action="${order.text}"]`).click();
    await waitForLog(page, 2);
    await myTurn(page);
    view = await myView(page, id);
    assert.ok(view.board!.squares.some(s => s.square === order.to && s.piece), `a piece now stands on ${order.to}`);
    assert.ok(!view.board!.squares.some(s => s.square === order.from && s.piece), `${order.from} is empty`);
    assert.equal(zone('orders (face down)').hidden, 1, 'the card went face down');
    assert.equal(zone('hand').hidden, 7);

    // Add a piece: the Actions button.
    await page.locator('section.actions button.action[data-action="add"]').click();
    await waitForLog(page, 3);
    view = await myView(page, id);
    if (!view.outcome) await myTurn(page);
    assert.equal(zone('discard (face up)').cards.length, 9, 'the added card face up');
    assert.equal(await zoneCards(page, 'discard (face up)').count(), 9);
    assert.equal(zone('hand').hidden, 6);
    assert.match((await page.locator('section.tables').textContent()) ?? '', /Groups/);
    console.log(`parade: log ${(await logEntries(page)).join(' | ')}`);
    await screenshot(page, 'e2e-parade-play');

    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    assert.deepEqual(headings.slice(0, 2), ['The rules in our words', 'Rulings']);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /opposite colour/);
    await context.close();
  });
});
