// Telepathy Chess in the browser against the real server (`chesskit
// serve`), from the lobby: four seats, me as White A with three computers.
// I predict by clicking a card of my hand; the computer partner moves and
// never sees the card; the flip is read in the log and the coin drawn on
// the trophy track; on the team's next turn I am the mover.
// Screenshots go to web/test-results/e2e-telepathy-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, createFromLobby, logEntries, screenshot, seatView, requireVariant, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string) => seatView(setup.server.url, page, id);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

describe('telepathy', () => {
  test('a prediction by card and a move from the lobby, four seats, the card hidden from the partner', async () => {
    const info = requireVariant(setup, 'telepathy');
    assert.deepEqual(info.seats, ['White A', 'Black A', 'White B', 'Black B']);
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'telepathy', [
      'me',
      'computer:random',
      'computer:random',
      'computer:random',
    ]);

    // My hand: the six cards other than the face-up pawn, drawn as cards.
    await myTurn(page);
    let view = await myView(page, id);
    const hand = (view.zones ?? []).find(z => z.name === 'White hand')!;
    assert.deepEqual(hand.cards, ['8h', '9h', '10h', 'qh', 'kh', '6h']);
    assert.ok(await page.locator('[data-zone="White face up"] .card[data-card="2h"]').count(), 'the face-up pawn');
    assert.ok(await page.locator('section.tables').getByText('Trophy track').count(), 'the trophy track');
    assert.equal(await page.locator('[data-zone="White hand"] .card[data-card="8h"]').getAttribute('data-piece'), '♘');
    await screenshot(page, 'e2e-telepathy-start');

    // Predict the knight by clicking its card; my partner moves at once.
    const before = (await logEntries(page)).length;
    await page.locator('[data-zone="White hand"] button.card.playable[data-card="8h"]').click();
    await waitForLog(page, before + 1);

    // The computers play on until it is my turn again: now I am White's mover.
    await myTurn(page);
    view = await myView(page, id);
    const log = view.log.map(e => e.text).join(' | ');
    assert.match(log, /flips the knight/, 'the card was flipped after my partner moved');
    assert.ok(view.actions.some(a => a.text === 'e2e4' || a.from), 'I move this turn');
    assert.ok(view.prompt?.startsWith('Your move'), view.prompt);
    // White B predicted: I see only the back of the card and the count of the hand.
    const down = (view.zones ?? []).find(z => z.name === 'White face down')!;
    assert.deepEqual([down.cards.length, down.hidden], [0, 1]);
    assert.equal((view.zones ?? []).find(z => z.name === 'White hand')!.hidden, 5, 'the hand would give it away');
    assert.ok(await page.locator('[data-zone="White face down"] .card.back').count(), 'a face-down card is drawn');
    await screenshot(page, 'e2e-telepathy-mover');

    const moves = view.actions.filter(a => a.from && a.to);
    const pick = moves.find(a => a.text === 'b1c3') ?? moves.find(a => a.from?.endsWith('2')) ?? moves[0];
    const n = (await logEntries(page)).length;
    await clickMove(page, pick.from!, pick.to!);
    await waitForLog(page, n + 1);
    assert.ok((await logEntries(page)).join(' ').includes(`${pick.from}-${pick.to}`), 'my move is in the log');
    await context.close();
  });

  test('four people at one device: the privacy screen hides the card from the partner', async () => {
    requireVariant(setup, 'telepathy');
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    // The lobby by hand: the privacy screen covers the page before anything is drawn.
    await page.goto(`${setup.server.url}/`);
    await page.locator('button.variant[data-variant="telepathy"]').click();
    for (const i of [0, 1, 2, 3]) await page.locator(`select[data-seat="${i}"]`).selectOption('me');
    await page.locator('#create').click();
    await page.waitForURL(/\/play\/[^?]+$/);

    // Nobody is shown anything before White A is at the device.
    await page.locator('.privacy').waitFor();
    assert.match((await page.locator('.privacy').textContent()) ?? '', /Pass the device to White A/);
    await page.locator('#privacy-ready').click();
    await page.locator('[data-zone="White hand"] button.card.playable[data-card="9h"]').click();

    // White A sees the result, then passes the device to the partner.
    await page.locator('#pass-device').waitFor();
    assert.ok(await page.locator('[data-zone="White face down"] .card[data-card="9h"]').count(), 'my own card');
    await page.locator('#pass-device').click();
    await page.locator('.privacy').waitFor();
    assert.match((await page.locator('.privacy').textContent()) ?? '', /Pass the device to White B/);
    await page.locator('#privacy-ready').click();

    // White B moves without seeing the card: only a back, no faces of the hand.
    await page.locator('.status[data-my-turn="yes"]').waitFor();
    assert.equal(await page.locator('[data-zone="White face down"] .card.back').count(), 1);
    assert.equal(await page.locator('[data-zone="White face down"] .card[data-card]').count(), 0);
    assert.equal(await page.locator('[data-zone="White hand"] .card[data-card]').count(), 0);
    assert.doesNotMatch((await page.locator('main.game').textContent()) ?? '', /bishop \(9/);
    await screenshot(page, 'e2e-telepathy-partner');
    const before = (await logEntries(page)).length;
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, before + 1);
    await context.close();
  });
});
