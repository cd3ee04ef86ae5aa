// What the real server's tests of the table (ui-table*.test.ts) share: the
// two screen widths, a fresh page, an action taken for a seat through the
// API, and waiting for one's turn.

import type { Page } from 'playwright-core';
import { type Setup, newContextPage } from './harness.ts';

export const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** A fresh page at `viewport` (a phone's is touch-enabled), with the page's errors in the test's output. */
export async function newPage(setup: Setup, viewport: { width: number; height: number }): Promise<Page> {
  const phone = viewport.width < 700;
  return (await newContextPage(setup.browser, { viewport, isMobile: phone, hasTouch: phone })).page;
}

/** Seat `seat`'s token of game `id`, as the page keeps it. */
async function tokenOf(page: Page, id: string, seat: number): Promise<string> {
  return page.evaluate(
    ([gameId, s]) => JSON.parse(localStorage.getItem(`chesskit:game:${gameId}`) ?? '{}').tokens?.[s],
    [id, String(seat)],
  );
}

/** Take `action` for `seat` through the API (the page hears of it over its socket); throws if refused. */
export async function actFor(setup: Setup, page: Page, id: string, seat: number, action: string): Promise<void> {
  const token = await tokenOf(page, id, seat);
  const response = await fetch(`${setup.server.url}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, action }),
  });
  if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`);
}

export const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 30_000 });
