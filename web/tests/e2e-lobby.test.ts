// The lobby with strangers, in the browser against the real server
// (docs/web.md, "The lobby"): A opens a chess challenge under a name; B,
// in another browser, sees it under "Open challenges", takes Black under
// a name, and both play a move; C sees the game under "Live games" and
// watches it. Then a creator nobody joins fills the empty seat with a
// computer, which answers the first move. Both at a laptop's width and a
// phone's. Screenshots: web/test-results/e2e-lobby-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { clickMove, requireVariant, screenshot, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

const WIDTHS = [
  { name: 'wide', width: 1366, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

async function newPage(browser: Browser, size: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return page;
}

/** Open a chess challenge as `name` from the lobby, Black left to anyone: the game's id, its page up. */
async function openChallenge(page: Page, name: string): Promise<string> {
  await page.goto(`${setup.server.url}/`);
  await page.locator('button.variant[data-variant="chess"]').click();
  await page.locator('select[data-seat="0"]').selectOption('me');
  await page.locator('select[data-seat="1"]').selectOption('open');
  await page.locator('#open-to-anyone').check();
  await page.locator('#creator-name').fill(name);
  await page.locator('#create').click();
  await page.waitForURL(/\/play\/[^?]+$/);
  await page.locator('main.game[data-version]').waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

describe('the lobby', () => {
  for (const size of WIDTHS) {
    test(`a stranger takes an open challenge, both play, a third watches it live (${size.name})`, async () => {
      requireVariant(setup, 'chess');
      const a = await newPage(setup.browser, size);
      const id = await openChallenge(a, 'Ada');
      await a.locator('section.waiting-room').waitFor();
      await screenshot(a, `e2e-lobby-waiting-${size.name}`);

      const b = await newPage(setup.browser, size);
      await b.goto(`${setup.server.url}/`);
      const card = b.locator(`.lobby-card.challenge[data-game="${id}"]`);
      await card.waitFor();
      assert.match((await card.textContent()) ?? '', /Ada/, 'the creator is named');
      await b.locator('#challenge-name').fill('Bob');
      await screenshot(b, `e2e-lobby-challenges-${size.name}`);
      await card.locator('button.take[data-seat="1"]').click();
      await b.waitForURL(new RegExp(`/play/${id}$`));
      await b.locator('main.game[data-version]').waitFor();
      assert.equal(
        await b.evaluate(() => localStorage.getItem('chesskit:name')),
        'Bob',
        'the name is remembered for the next challenge',
      );

      // The creator's page sees the seat taken (it asks every 3 s), and the game begins.
      await a.locator('section.waiting-room').waitFor({ state: 'detached', timeout: 15_000 });
      await clickMove(a, 'e2', 'e4');
      await waitForLog(b, 1);
      await clickMove(b, 'e7', 'e5');
      await waitForLog(a, 2);
      await screenshot(b, `e2e-lobby-taken-${size.name}`);
      assert.equal(await b.locator('.seat[data-seat="0"] .kind').textContent(), 'Ada', 'B sees whom it plays');
      assert.equal(await a.locator('.seat[data-seat="1"] .kind').textContent(), 'Bob', 'and so does A');

      const c = await newPage(setup.browser, size);
      await c.goto(`${setup.server.url}/`);
      const live = c.locator(`.lobby-card.live[data-game="${id}"]`);
      await live.filter({ hasText: '2 moves' }).waitFor({ timeout: 15_000 });
      const text = (await live.textContent()) ?? '';
      assert.match(text, /Ada \(White\) and Bob \(Black\)/, text);
      assert.equal(await c.locator(`.lobby-card.challenge[data-game="${id}"]`).count(), 0, 'no longer open');
      await screenshot(c, `e2e-lobby-live-${size.name}`);
      await live.locator('a.watch').click();
      await c.waitForURL(new RegExp(`/play/${id}$`));
      await c.locator('p.spectating').waitFor();
      await waitForLog(c, 2);
      await screenshot(c, `e2e-lobby-watching-${size.name}`);
      for (const page of [a, b, c]) await page.context().close();
    });

    test(`the creator fills the empty seat with a computer at a chosen level (${size.name})`, async () => {
      requireVariant(setup, 'chess');
      const a = await newPage(setup.browser, size);
      const id = await openChallenge(a, 'Cleo');
      const room = a.locator('section.waiting-room');
      await room.locator('select.fill-level[data-seat="1"]').selectOption('random');
      await room.locator('button.fill[data-seat="1"]').click();
      await room.waitFor({ state: 'detached' });
      assert.match((await a.locator('.seat[data-seat="1"] .kind').textContent()) ?? '', /computer \(random moves\)/);
      await clickMove(a, 'e2', 'e4');
      await waitForLog(a, 2); // the computer answered
      const summary = await (await fetch(`${setup.server.url}/api/games/${id}`)).json();
      assert.equal(summary.seats[1].kind, 'computer:random');
      await screenshot(a, `e2e-lobby-filled-${size.name}`);
      await a.context().close();
    });
  }
});
