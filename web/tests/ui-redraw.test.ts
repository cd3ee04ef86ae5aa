// What a player is in the middle of survives the page's redraws: a move
// that arrives over the socket, or the poll for a friend who has not come
// yet (every few seconds), redraws the page, and used to take away an open
// "Resign this game?" or "Abort this game?" from under the player's finger
// and put the waiting room's computer level back to its default.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createFromLobby, nextFrames, screenshot, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

describe('what a redraw keeps', () => {
  test('an open "Resign this game?" survives a redraw and keeps the keyboard on its answer', async () => {
    const context = await setup.browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'open']);
    await page.locator('button[data-session="resign"]').click();
    await page.locator('button[data-confirm="resign"]').waitFor();

    // White's move, sent by another tab of the same player: the page hears it and redraws.
    const token = await page.evaluate(gameId => JSON.parse(localStorage.getItem(`chesskit:game:${gameId}`) ?? '{}').tokens?.['0'], id);
    const response = await fetch(`${setup.server.url}/api/games/${id}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, action: 'e4' }),
    });
    assert.equal(response.status, 200, await response.text());
    await waitForLog(page, 1);

    assert.equal(await page.locator('.confirm').count(), 1, 'the question is still open after the redraw');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-confirm')), 'resign', 'the keyboard is still on "Yes"');
    await screenshot(page, 'ui-confirm-resign-after-redraw');

    await page.locator('button[data-cancel="resign"]').click();
    assert.equal(await page.locator('.confirm').count(), 0, '"No" closes it');
    await page.locator('button[data-session="resign"]').click();
    await page.locator('button[data-confirm="resign"]').click();
    await page.locator('.status .outcome').waitFor();
    assert.equal(await page.locator('.confirm').count(), 0, 'the question is gone once the game is over');
    await context.close();
  });

  test('while a friend is awaited, an open "Abort this game?" and the chosen computer level survive the poll\'s redraws', async () => {
    const context = await setup.browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    const id = await openChallenge(page);
    await page.locator('select.fill-level[data-seat="1"]').selectOption('random');
    await page.locator('button[data-session="abort"]').click();
    await page.locator('button[data-confirm="abort"]').waitFor();

    await nextPoll(page, id);
    assert.equal(await page.locator('select.fill-level[data-seat="1"]').inputValue(), 'random', 'the level chosen is kept');
    assert.equal(await page.locator('.confirm').count(), 1, 'the question is still open');
    await screenshot(page, 'ui-redraw-waiting-room-after-poll');

    await page.locator('button[data-confirm="abort"]').click();
    await page.locator('.status .outcome').waitFor();
    await context.close();
  });
});

/** An open challenge of chess: this page plays White and waits for anyone to take Black. */
async function openChallenge(page: Page): Promise<string> {
  await page.goto(`${setup.server.url}/`);
  await page.locator('button.variant[data-variant="chess"]').click();
  await page.locator('select[data-seat="0"]').selectOption('me');
  await page.locator('select[data-seat="1"]').selectOption('open');
  await page.locator('#open-to-anyone').check();
  await page.locator('#creator-name').fill('Cleo');
  await page.locator('#create').click();
  await page.waitForURL(/\/play\/[^?]+$/);
  await page.locator('section.waiting-room').waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Once the page has asked again whether the friend has come (it redraws with the answer), and drawn it. */
async function nextPoll(page: Page, id: string): Promise<void> {
  await page.waitForResponse(response => new URL(response.url()).pathname === `/api/games/${id}`, { timeout: 15_000 });
  await nextFrames(page);
}
