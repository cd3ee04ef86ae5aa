// What the stand-in server's tests of the table (ui-game*.test.ts) share:
// the two screen sizes, a page on a context of its own with the game's
// store filled in, a position in the middle of a game, a move by clicks or
// taps, and where the player looks.

import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { View } from '../src/types.ts';
import { click, clickMove, tap } from './harness.ts';
import { type MockServer, WHITE_BLACK, startSquares } from './mock.ts';

export const DESKTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };
export type Screen = typeof DESKTOP;
export const SCREENS: [string, Screen][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

export async function newPage(browser: Browser, screen: Screen, server: MockServer, store?: { id: string; value: unknown }): Promise<Page> {
  const phone = screen.width < 700;
  const context = await browser.newContext({ viewport: screen, isMobile: phone, hasTouch: phone, deviceScaleFactor: phone ? 2 : 1 });
  if (store) {
    await context.addInitScript(([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    }, [`chesskit:game:${store.id}`, JSON.stringify(store.value)] as const);
  }
  await server.install(context);
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return page;
}

/** A position in the middle of a game, White (seat 0) to move, with a Masquerade-like capture attempt on offer. */
export function midgame(seat: number, partial: Partial<View> = {}): View {
  return {
    variant: 'demo',
    viewer: { seat },
    seats: WHITE_BLACK,
    board: { files: 8, ranks: 8, squares: startSquares().filter(s => s.square !== 'e2' && s.square !== 'e7') },
    log: [
      { seat: 0, text: 'e2-e4' },
      { seat: 1, text: 'e7-e5' },
    ],
    prompt: 'Move a piece, or try a capture: only the referee knows whether it is one',
    to_act: [0],
    actions:
      seat === 0
        ? [
            { text: 'g1f3', from: 'g1', to: 'f3' },
            { text: 'd2d3', from: 'd2', to: 'd3' },
            { text: 'd1h5', from: 'd1', to: 'h5' },
          ]
        : [],
    session_actions: ['resign', 'offer draw'],
    ...partial,
  };
}

/** Play a move by its two squares: clicks on a desktop, taps on a phone. */
export async function move(page: Page, from: string, to: string): Promise<void> {
  const phone = (page.viewportSize()?.width ?? DESKTOP.width) < 700;
  await clickMove(page, from, to, '#board', phone ? tap : click);
}

/** The callout is where the player looks: beside the board on a desktop, above it on a phone, inside the first screen. */
export async function assertInSight(page: Page, selector: string, screen: Screen): Promise<void> {
  await page.locator(selector).first().waitFor();
  // Both boxes measured in one task of the page: while a game is over the page asks every 3 s
  // whether a rematch has started and draws again, and an element found before a redraw has no box after it.
  const [box, board] = await page.evaluate(
    sel => [document.querySelector(sel), document.querySelector('#board')].map(e => (e ? e.getBoundingClientRect().toJSON() : null)),
    selector,
  );
  assert.ok(box && box.height > 0, `${selector} is drawn`);
  assert.ok(board, 'the board is drawn');
  assert.ok(box.y + box.height <= screen.height, `${selector} is on the first screen (bottom ${box.y + box.height})`);
  if (screen.width < 700) assert.ok(box.y + box.height <= board.y + 1, `${selector} is above the board on a phone`);
  else assert.ok(box.x >= board.x + board.width, `${selector} is beside the board on a desktop`);
}
