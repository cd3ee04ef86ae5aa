// What the four-player browser tests share (issue 26): a table of four
// browser contexts, one a seat, made as players make it (seat 0 creates the
// game in the lobby and invites three friends, who open the links it shows),
// then played by clicks (taps on a phone) on the page of the seat to act.
// The tests read the API only to choose the click and to check the pages.

import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import type { View } from '../src/types.ts';
import { type Press, type Setup, click, clickMove, clickSquare, createFromLobby, nextFrames, screenshot, seatViewResponse, tap } from './harness.ts';

export const DESKTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** One seat at the table: its own browser context (its own localStorage, so its own token). */
export interface Player {
  seat: number;
  context: BrowserContext;
  page: Page;
  phone: boolean;
}

export interface Table {
  id: string;
  players: Player[];
}

/** A context the size of `viewport`; a phone-sized one touches rather than clicks, as a phone does. */
async function newPlayer(setup: Setup, seat: number, viewport: { width: number; height: number }): Promise<Player> {
  const phone = viewport.width < 700;
  const context = await setup.browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error (seat ${seat}): ${e.message}`));
  return { seat, context, page, phone };
}

/**
 * Seat 0 creates `variant` in the lobby with the three other seats "Invite
 * a friend", and reads the three invite links from its page; each friend
 * opens theirs in a context of its own, sized `viewports[seat]`, the three
 * at once. Seat 0's page then says each has joined.
 */
export async function tableOfFour(setup: Setup, variant: string, viewports: { width: number; height: number }[]): Promise<Table> {
  const host = await newPlayer(setup, 0, viewports[0]);
  const id = await createFromLobby(host.page, setup.server.url, variant, ['me', 'open', 'open', 'open']);
  const friends = [1, 2, 3].map(async seat => {
    const link = await host.page.locator(`.invite-link[data-seat="${seat}"]`).inputValue();
    assert.match(link, new RegExp(`^${setup.server.url}/play/${id}\\?token=`), `seat ${seat}'s invite link`);
    const friend = await newPlayer(setup, seat, viewports[seat]);
    await friend.page.goto(link);
    await friend.page.locator(`main.game[data-seat="${seat}"]`).waitFor();
    return friend;
  });
  const players = [host, ...(await Promise.all(friends))];
  // The host's page asks every few seconds who has come.
  for (const seat of [1, 2, 3]) await host.page.locator(`.invites .joined[data-seat="${seat}"]`).waitFor({ timeout: 10_000 });
  assert.equal(await host.page.locator('.invite-link').count(), 0, 'no link left once all three came');
  return { id, players };
}

/** The view `player`'s seat is sent, with its version (the token read from that page's own storage). */
export async function viewOf(setup: Setup, table: Table, player: Player): Promise<{ version: number; view: View }> {
  return seatViewResponse(setup.server.url, player.page, table.id, player.seat);
}

/** Wait until a page shows the game at `version` or later. */
export async function pageAtVersion(page: Page, version: number): Promise<void> {
  await page.waitForFunction(v => Number(document.querySelector('main.game')?.getAttribute('data-version')) >= v, version, { timeout: 15_000 });
}

/**
 * The seats with something to do, as the server tells each seat, and the
 * game's version. Seats that must act at once (Split-Brain's partners
 * circling) are all listed.
 */
export async function seatsToAct(setup: Setup, table: Table): Promise<{ version: number; actors: { player: Player; view: View }[] }> {
  const views = await Promise.all(table.players.map(p => viewOf(setup, table, p)));
  const version = Math.max(...views.map(v => v.version));
  const actors = views
    .map(({ view }, i) => ({ player: table.players[i], view }))
    .filter(({ player, view }) => view.to_act.includes(player.seat) && view.actions.length > 0);
  return { version, actors };
}

/**
 * Click (tap, on a phone) a square of the board on `player`'s page,
 * scrolling the board into view first as a player would: on a phone the
 * panel above it may push it below the fold.
 */
export async function touchSquare(player: Player, key: string): Promise<void> {
  await player.page.locator('#board').scrollIntoViewIfNeeded();
  await clickSquare(player.page, key, '#board', pressOf(player));
}

/** Play a move by clicking (tapping) the piece, then its destination: the harness's `clickMove`, with its retries. */
export async function touchMove(player: Player, from: string, to: string): Promise<void> {
  await player.page.locator('#board').scrollIntoViewIfNeeded();
  await clickMove(player.page, from, to, '#board', pressOf(player));
}

/** A phone's player taps, a desk's clicks. */
const pressOf = (player: Player): Press => (player.phone ? tap : click);

/**
 * The end as the table sees it: every page shows one outcome (returned),
 * nobody has anything left to do, and a screenshot of each page is taken,
 * named `name`.
 */
export async function endOnEveryPage(setup: Setup, table: Table, name: string): Promise<string> {
  const outcome = await outcomeOnEveryPage(table);
  const { actors } = await seatsToAct(setup, table);
  assert.deepEqual(actors.map(a => a.player.seat), [], 'nobody has anything left to do');
  await screenshotsOfAll(table, name);
  return outcome;
}

/** Every page shows the same outcome in its status line; returns it. */
async function outcomeOnEveryPage(table: Table): Promise<string> {
  const shown: string[] = [];
  for (const { page } of table.players) {
    await page.locator('main.game[data-over="yes"] .status .outcome').waitFor({ timeout: 15_000 });
    shown.push((await page.locator('.status .outcome').textContent()) ?? '');
  }
  assert.ok(shown.every(s => s === shown[0] && s.length > 0), `every page shows one outcome: ${shown.join(' / ')}`);
  return shown[0];
}

/**
 * The move list is not cut off: nothing in it runs out sideways, and its
 * first and its last entry can each be brought into view, lie inside the
 * window, and are what the page shows at their middle (nothing covers them).
 */
export async function logReachable(player: Player): Promise<void> {
  const entries = player.page.locator('.log .entry');
  const count = await entries.count();
  assert.ok(count > 0, 'the move list has entries');
  const sideways = await player.page.locator('.log').evaluate(log => log.scrollWidth - log.clientWidth);
  assert.ok(sideways <= 0, `seat ${player.seat}: the move list runs ${sideways} px out of its box sideways`);
  for (const which of ['first', 'last'] as const) {
    // Found, scrolled to and measured in one task of the page: a redraw in between (the page asks every
    // few seconds whether a rematch has started) would replace the entry found, or scroll the new list
    // back to its end.
    const seen = await player.page.evaluate(w => {
      const all = document.querySelectorAll('.log .entry');
      const el = all[w === 'first' ? 0 : all.length - 1];
      el.scrollIntoView({ block: 'center', behavior: 'instant' });
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {
        text: el.textContent,
        inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight && r.height > 0,
        uncovered: top !== null && (el === top || el.contains(top)),
      };
    }, which);
    assert.ok(seen.inside, `seat ${player.seat}: "${seen.text}" lies inside the window once scrolled to`);
    assert.ok(seen.uncovered, `seat ${player.seat}: "${seen.text}" is not covered once scrolled to`);
  }
}

/**
 * A player who scrolled the move list back to its first line after the end
 * still reads it after the page's next look at the server (every few
 * seconds it asks whether a rematch has started, and draws again): the
 * redraw does not throw the list back to its last line.
 */
export async function logStaysScrolledBack(player: Player, id: string): Promise<void> {
  const log = player.page.locator('.log');
  await log.evaluate(el => (el.scrollTop = 0));
  await player.page.waitForResponse(r => new URL(r.url()).pathname === `/api/games/${id}`, { timeout: 10_000 });
  await nextFrames(player.page);
  const scrolled = await log.evaluate(el => ({ top: el.scrollTop, room: el.scrollHeight - el.clientHeight }));
  assert.ok(scrolled.room > 0, `seat ${player.seat}: the move list is long enough to scroll`);
  assert.equal(scrolled.top, 0, `seat ${player.seat}: the move list stays at its first line after a redraw`);
}

/** A screenshot of each page, named by the test, the seat and the size. */
async function screenshotsOfAll(table: Table, name: string): Promise<void> {
  for (const player of table.players) {
    await player.page.evaluate(() => scrollTo(0, 0));
    await screenshot(player.page, `${name}-seat${player.seat}-${player.phone ? 'phone' : 'desktop'}`);
  }
}

export async function closeTable(table: Table): Promise<void> {
  for (const { context } of table.players) await context.close();
}
