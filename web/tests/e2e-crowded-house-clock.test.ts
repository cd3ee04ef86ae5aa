// Crowded House on the talking clock, in the browser against the real
// server: the lobby's `clock` option, the two clocks with the running one
// ticking down, the coin a team's talk puts in the other team's pile drawn
// as a coin, and a flag that falls while nobody moves (the server's timer
// records it and every page shows the loss on time). Screenshots go to
// web/test-results/e2e-crowded-house-clock-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clickMove, createFromLobby, screenshot, requireVariant, serverAndBrowser, seatView, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('crowded house talking clock', () => {
  test('a clock from the lobby: the running clock ticks down, and talk puts a coin in the other pile', async () => {
    requireVariant(setup, 'crowded-house');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'crowded-house', ['me', 'local', 'local', 'local'], async p => {
      await p.locator('input[data-option="clock"]').fill('5');
    });
    const white = page.locator('.clock[data-clock="White"]');
    const black = page.locator('.clock[data-clock="Black"]');
    await white.waitFor();
    assert.equal(await white.locator('.clock-time').textContent(), '5:00');
    assert.equal(await page.locator('.clock-running').count(), 0, 'the clocks start with the first move');

    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, 1);
    await page.locator('.clock-running[data-clock="Black"]').waitFor();
    // Black's clock counts down on the page between the server's views.
    await page.waitForFunction(() => {
      const text = document.querySelector('.clock[data-clock="Black"] .clock-time')?.textContent ?? '';
      return text !== '5:00' && text.startsWith('4:5');
    }, undefined, { timeout: 5_000 });
    assert.equal(await white.locator('.clock-time').textContent(), '5:00', "White's clock stands while Black thinks");

    // Black (on this device, to move) talks: a coin from the centre to White's pile.
    const ready = page.locator('.privacy:not([hidden]) button');
    if (await ready.count()) await ready.first().click();
    await page.locator('.chat-input').fill('e5, I think');
    await page.locator('.chat-form button').click();
    await white.locator('.coin').first().waitFor();
    assert.equal(await white.locator('.coin').count(), 1);
    assert.equal(await black.locator('.coin').count(), 0);
    assert.match((await black.locator('.clock-note').textContent()) ?? '', /talk paid until the team moves/);
    const view = await seatView(setup.server.url, page, id, 1);
    assert.deepEqual(view.clocks!.map(c => [c.name, c.coins, c.running]), [['White', 1, false], ['Black', 0, true]]);
    assert.match(view.log[view.log.length - 1].text, /Black pays for talk: a coin from the centre to White's pile/);
    await screenshot(page, 'e2e-crowded-house-clock-coins');
    await context.close();
  });

  test('a flag falls while nobody moves: the page shows the loss on time', async () => {
    requireVariant(setup, 'crowded-house');
    // Black has two seconds left on a one-minute clock.
    const created = await (
      await fetch(`${setup.server.url}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          variant: 'crowded-house',
          options: { clock: 1 },
          position: `${START}\nclock: 60000 2000`,
          seats: ['human', 'human', 'human', 'human'],
        }),
      })
    ).json();
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    await page.goto(`${setup.server.url}${created.seats[0].invite}`);
    await page.locator('.clock[data-clock="Black"]').waitFor();
    assert.equal(await page.locator('.clock[data-clock="Black"] .clock-time').textContent(), '0:02');
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, 1);
    // Nobody answers: the server's timer records Black's fall, and the page is told.
    await page.locator('.outcome').waitFor({ timeout: 10_000 });
    assert.match((await page.locator('.outcome').textContent()) ?? '', /time forfeit/);
    assert.equal(await page.locator('.clock[data-clock="Black"] .clock-time').textContent(), '0:00');
    await screenshot(page, 'e2e-crowded-house-clock-flag');
    await context.close();
  });
});
