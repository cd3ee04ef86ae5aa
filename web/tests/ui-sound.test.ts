// Sound at the table (issue 26), in the browser against the real server:
// the header's switch is off by default and nothing plays; turned on, it
// is remembered after a reload, and the other side's move, capture, check,
// secret choice and the game's end each play their sound, while the
// player's own moves play none. The page records what it plays in
// `window.__chesskitSounds` (the test defines it before the page loads).
// Each event is screenshotted at both widths: web/test-results/ui-sound-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, requireVariant, screenshot, serverAndBrowser } from './harness.ts';

const setup = serverAndBrowser();

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** A game of two seats made through the API: its id and both seats' tokens. */
async function twoSeatGame(variant: string): Promise<{ id: string; mine: string; theirs: string }> {
  const response = await fetch(`${setup.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant, seats: ['human', 'human'] }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const created: { id: string; seats: { token?: string }[] } = await response.json();
  return { id: created.id, mine: created.seats[0].token!, theirs: created.seats[1].token! };
}

/** The other side acts, through the API with its own token. */
async function theyPlay(id: string, token: string, action: string): Promise<void> {
  const response = await fetch(`${setup.server.url}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, action }),
  });
  assert.equal(response.status, 200, await response.text());
}

/** A page whose sounds are recorded, at one width. */
async function soundPage(width: number, height: number): Promise<Page> {
  const context = await setup.browser.newContext({ viewport: { width, height } });
  await context.addInitScript(() => {
    window.__chesskitSounds = [];
  });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return page;
}

async function sounds(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__chesskitSounds ?? []);
}

/** Wait until the page has shown `version`, then say what it has played. */
async function soundsAt(page: Page, version: number): Promise<string[]> {
  await page.locator(`main.game[data-version="${version}"]`).waitFor();
  return sounds(page);
}

const toggle = (page: Page) => page.locator('header.top .sound-switch');

describe('sound at the table', () => {
  for (const { name, width, height } of WIDTHS) {
    test(`${name}: off by default and silent; on, remembered, and the other side's move, capture, check and the end sound`, async () => {
      const { id, mine, theirs } = await twoSeatGame('chess');
      const page = await soundPage(width, height);
      await page.goto(`${setup.server.url}/play/${id}?token=${mine}`);
      await page.locator('main.game[data-version="0"]').waitFor();

      assert.equal(await toggle(page).textContent(), 'Sound: off', 'off by default');
      await clickMove(page, 'e2', 'e4');
      assert.deepEqual(await soundsAt(page, 1), []);
      await theyPlay(id, theirs, 'e5');
      assert.deepEqual(await soundsAt(page, 2), [], 'nothing plays while the switch is off');
      await screenshot(page, `ui-sound-${name}-off`);

      await toggle(page).click();
      assert.equal(await toggle(page).textContent(), 'Sound: on');
      await page.reload();
      await page.locator('main.game[data-version="2"]').waitFor();
      assert.equal(await toggle(page).textContent(), 'Sound: on', 'the switch is remembered after a reload');
      assert.deepEqual(await sounds(page), [], 'loading a game plays nothing');

      await clickMove(page, 'd2', 'd4');
      assert.deepEqual(await soundsAt(page, 3), [], "the player's own move plays nothing");
      await theyPlay(id, theirs, 'exd4');
      assert.deepEqual(await soundsAt(page, 4), ['capture'], 'the other side captures');
      await screenshot(page, `ui-sound-${name}-capture`);

      await clickMove(page, 'g1', 'f3');
      assert.deepEqual(await soundsAt(page, 5), ['capture'], "the player's own move plays nothing");
      await theyPlay(id, theirs, 'Bb4+');
      assert.deepEqual(await soundsAt(page, 6), ['capture', 'check'], 'the other side gives check');
      await screenshot(page, `ui-sound-${name}-check`);

      await clickMove(page, 'c2', 'c3');
      assert.deepEqual(await soundsAt(page, 7), ['capture', 'check'], "the player's own move plays nothing");
      await theyPlay(id, theirs, 'Nf6');
      assert.deepEqual(await soundsAt(page, 8), ['capture', 'check', 'move'], 'the other side moves');
      await screenshot(page, `ui-sound-${name}-move`);

      await theyPlay(id, theirs, 'resign');
      await page.locator('main.game[data-version="9"]').waitFor();
      await page.waitForFunction(() => (window.__chesskitSounds ?? []).length === 4);
      assert.deepEqual(await sounds(page), ['capture', 'check', 'move', 'end'], "the game's end");
      await screenshot(page, `ui-sound-${name}-end`);
      await page.context().close();
    });

    test(`${name}: the other side's secret choice sounds, without what was chosen`, async () => {
      requireVariant(setup, 'masquerade');
      const { id, mine, theirs } = await twoSeatGame('masquerade');
      const page = await soundPage(width, height);
      await page.goto(`${setup.server.url}/play/${id}?token=${mine}`);
      await page.locator('main.game[data-version="0"]').waitFor();
      await toggle(page).click();

      await theyPlay(id, theirs, 'assign KN QB RR BQ NK');
      assert.deepEqual(await soundsAt(page, 1), ['secret']);
      await screenshot(page, `ui-sound-${name}-secret`);
      await page.context().close();
    });
  }
});
