// What the browser tests of Learn by playing (docs/web.md) share: a new
// game's page with its book examples, an example's card and board, the
// referee's answer on it, and a picture of it.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { RESULTS, type Setup, boardAtRest } from './harness.ts';

export const SIZES = [
  { width: 1366, height: 800 },
  { width: 390, height: 844 },
];

/** A new game of `variant` made over the API, its page open for its first seat; the examples loaded. */
export async function gamePage(setup: Setup, variant: string, viewport: { width: number; height: number }): Promise<Page> {
  const reply = await fetch(`${setup.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant }),
  });
  assert.equal(reply.status, 201, await reply.clone().text());
  const game = await reply.json();
  const context = await setup.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  await page.goto(`${setup.server.url}/play/${game.id}?token=${game.seats[0].token}`);
  await page.locator('section.learn').waitFor();
  return page;
}

export const exampleCard = (page: Page, title: string): Locator => page.locator(`article.example[data-title="${title}"]`);

export const boardOf = (title: string) => `article.example[data-title="${title}"] .example-board`;

/** The referee's answer on an example, once it has this verdict. */
export async function answer(card: Locator, verdict: string): Promise<string> {
  const line = card.locator(`p.answer[data-verdict="${verdict}"]`);
  await line.waitFor({ timeout: 10_000 });
  return (await line.textContent()) ?? '';
}

/**
 * A picture of the example `title` as the player sees it, named by the test and the width, taken
 * once its board stands still (chessground's move animation done) rather than after a fixed pause.
 */
export async function shoot(page: Page, title: string, name: string, width: number): Promise<void> {
  await mkdir(RESULTS, { recursive: true });
  const card = exampleCard(page, title);
  await card.scrollIntoViewIfNeeded();
  await boardAtRest(page, boardOf(title));
  await card.screenshot({ path: join(RESULTS, `e2e-learn-${name}-${width}.png`) });
}
