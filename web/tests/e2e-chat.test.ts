// The table chat in the browser against the real server: a line said at
// the table shows for the player, survives the computer's move, and a line
// half typed is not lost when the game redraws; while a game's rules keep
// the seat silent (Telepathy's "Definitely none before your move") the box
// is greyed with the reason. Screenshots: web/test-results/e2e-chat*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clickMove, createFromLobby, screenshot, screenshotOf, seatView, requireVariant, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

describe('table chat', () => {
  test('a player says something; the line is kept, and typing survives a redraw', async () => {
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'computer:random']);
    await page.locator('.chat-empty').waitFor();

    await page.locator('.chat-input').fill('good luck, computer');
    await page.locator('.chat-input').press('Enter');
    await page.locator('.chat-line', { hasText: 'good luck, computer' }).waitFor();
    assert.equal(await page.locator('.chat-input').inputValue(), '', 'the box empties once the line is taken');
    assert.equal(await page.locator('.chat-line .who').first().textContent(), 'White:');

    await page.locator('.chat-input').fill('half a thou');
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, 2); // our move and the computer's answer
    assert.equal(await page.locator('.chat-input').inputValue(), 'half a thou', 'the redraw kept the typing');
    assert.equal(await page.locator('.chat-line').count(), 1);

    const view = await seatView(setup.server.url, page, id, 0);
    assert.deepEqual(view.chat, [{ seat: 0, text: 'good luck, computer', at: 0 }]);
    await screenshot(page, 'e2e-chat');
    await context.close();
  });

  test('the box is greyed with the reason while the rules forbid talk (Telepathy, before your move)', async () => {
    requireVariant(setup, 'telepathy');
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const seats = ['me', 'computer:random', 'computer:random', 'computer:random'];
    const id = await createFromLobby(page, setup.server.url, 'telepathy', seats);
    await page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });

    // White A predicts first: White's team is to move, so White A may not talk.
    assert.ok(await page.locator('.chat-input').isDisabled(), 'the box is greyed');
    assert.ok(await page.locator('.chat-form button').isDisabled(), 'and its Say button');
    const reason = await page.locator('.chat-closed').textContent();
    assert.match(reason ?? '', /Definitely none before your move/);
    const view = await seatView(setup.server.url, page, id, 0);
    assert.equal(view.chat_closed, reason, 'the reason is the view\'s');
    // The page is e2e-telepathy-start's picture: the chat box alone.
    await screenshotOf(page, 'section.chat', 'e2e-chat-closed');
    await context.close();
  });
});
