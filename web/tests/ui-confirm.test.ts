// An "are you sure?" question stays open while the game goes on: a move
// that arrives over the socket redraws the page, and used to take an open
// "Resign this game?" away from under the player's finger (the question
// and the keyboard's place on its button are kept across redraws now).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFromLobby, screenshot, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

describe('the questions a player is asked', () => {
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
});
