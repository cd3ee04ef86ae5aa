// What the browser tests share: the system Chromium, the real chesskit
// server on a free port with a throw-away database, screenshots, and
// finding squares on the board.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type BrowserServer,
  type Locator,
  type Page,
  type Request,
  chromium,
} from 'playwright-core';
import type { VariantInfo, View } from '../src/types.ts';

export const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(WEB, 'dist');
export const RESULTS = join(WEB, 'test-results');

/**
 * The Chromium the tests drive: CHROMIUM_BIN when set, else Debian's
 * headless shell (package chromium-headless-shell, the browser Playwright
 * itself runs headless tests in), else the full browser. Both render with
 * the same Blink; the shell leaves out the full browser's windowing and
 * took less than half of its CPU for the same 216 tests (docs/dev/ci.md).
 */
const CHROMIUM =
  process.env.CHROMIUM_BIN ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find(path => existsSync(path)) ?? '/usr/bin/chromium-headless-shell';

/**
 * Set by tests/run.ts for the files it runs: the one server and the one
 * Chromium they share, so that a run starts each once rather than once a
 * file. A file run alone (without them) starts its own.
 */
export const SHARED_SERVER = 'CHESSKIT_TEST_SERVER';
export const SHARED_BROWSER = 'CHESSKIT_TEST_BROWSER';

function chromiumOptions() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install -y chromium-headless-shell, or set CHROMIUM_BIN)`);
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

/**
 * A browser for one test file: the run's shared Chromium when there is one
 * (closing it then only disconnects this file; its contexts go with it),
 * else a Chromium of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER];
  return withReducedMotion(shared ? await chromium.connect(shared) : await chromium.launch(chromiumOptions()));
}

/**
 * Every browser context the tests open asks for reduced motion unless its
 * options say otherwise (`reducedMotion: 'no-preference'`, as the test of
 * motion does): the client then draws no sliding pieces (docs/web.md), and
 * Chromium renders no frames of them, a saving of the suite's CPU (docs/dev/ci.md).
 */
function withReducedMotion(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options: BrowserContextOptions = {}) => newContext({ reducedMotion: 'reduce', ...options });
  return browser;
}

/** The Chromium a whole run shares: test files connect to its `wsEndpoint()`. */
export async function launchSharedBrowser(): Promise<BrowserServer> {
  return chromium.launchServer(chromiumOptions());
}

export interface Server {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => ok(port));
    });
  });
}

/**
 * Start the built `chesskit serve` (CHESSKIT_BIN, default
 * ../target/debug/chesskit) on a free port with a fresh database and the
 * built client, and wait until it answers. `extra` adds flags of `serve`.
 */
export async function startServer(extra: string[] = []): Promise<Server> {
  const bin = resolve(WEB, process.env.CHESSKIT_BIN ?? '../target/debug/chesskit');
  if (!existsSync(bin)) throw new Error(`no chesskit binary at ${bin}: build it (cargo build -p chesskit) or set CHESSKIT_BIN`);
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no built client in ${DIST}: run npm run build`);
  const dir = await mkdtemp(join(tmpdir(), 'chesskit-web-'));
  const port = await freePort();
  // Scripted players act faster than people: lift the per-client rate limits (docs/deploy.md).
  const unlimited = ['--games-per-minute', '100000', '--actions-per-second', '10000', '--actions-per-minute', '100000'];
  // An analysis of a finished deal answers within seconds on the debug build, not the default's 10 million nodes.
  const quick = ['--analysis-nodes', '2000000'];
  // The tests run beside others on busy cores, where computers thinking at the idle policy
  // (a server's default) would wait for the whole machine to go idle (docs/dev/ci.md).
  const usual = ['--background-at-usual-priority'];
  const args = ['serve', '--port', String(port), '--db', join(dir, 'test.db'), '--web', DIST, ...unlimited, ...quick, ...usual, ...extra];
  const child: ChildProcess = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', d => (output += d));
  child.stderr!.on('data', d => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise(ok => child.once('exit', ok));
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/api/variants`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise(ok => setTimeout(ok, 150));
  }
  await stop();
  throw new Error(`chesskit serve did not answer on ${url}:\n${output}`);
}

/**
 * The run's shared server when tests/run.ts started one (stopping it is the
 * runner's business, so `stop` leaves it running), else a server of this
 * file's own. Every test makes its own games, so files can share a server.
 */
async function sharedOrOwnServer(): Promise<Server> {
  const shared = process.env[SHARED_SERVER];
  if (shared) return { url: shared, stop: async () => {} };
  return startServer();
}

/** What a browser test file runs against: filled in before its first test. */
export interface Setup {
  server: Server;
  browser: Browser;
  /** The games the server offers (GET /api/variants). */
  variants: VariantInfo[];
}

/**
 * The game `name` as the server lists it. A test of a game the server
 * lacks fails here, naming it: a skipped test would pass unseen while the
 * game it checks is gone.
 */
export function requireVariant(setup: Setup, name: string): VariantInfo {
  const info = setup.variants.find(v => v.name === name);
  if (!info) {
    const offered = setup.variants.map(v => v.name).join(', ');
    throw new Error(`the server does not offer the variant "${name}" (it offers: ${offered}); is CHESSKIT_BIN an old build?`);
  }
  return info;
}

/**
 * Start the server and Chromium before the calling file's tests, and stop
 * both after them. Call it once at the top of a test file; the returned
 * object is filled in when the tests run.
 */
export function serverAndBrowser(): Setup {
  const setup = {} as Setup;
  before(async () => {
    setup.server = await sharedOrOwnServer();
    setup.browser = await launchBrowser();
    setup.variants = await (await fetch(`${setup.server.url}/api/variants`)).json();
  });
  after(async () => {
    await setup.browser?.close();
    await setup.server?.stop();
  });
  return setup;
}

/**
 * The Chromium of a test file against the stand-in server (tests/mock.ts), which needs no real
 * one: connected before the file's first test, let go after its last. The returned object is
 * filled in when the tests run.
 */
export function browserOfFile(): { browser: Browser } {
  const file = {} as { browser: Browser };
  before(async () => {
    file.browser = await launchBrowser();
  });
  after(async () => {
    await file.browser?.close();
  });
  return file;
}

/**
 * In the lobby at `url`: choose the variant, let `options` set its options,
 * pick each seat ("me", "computer:level2", ...), create the game, and
 * return its id once the game page is up: the game drawn, or the privacy
 * screen that covers it when people share the device in a game that hides
 * things.
 */
export async function createFromLobby(
  page: Page,
  url: string,
  variant: string,
  seats: string[],
  options: (page: Page) => Promise<void> = async () => {},
): Promise<string> {
  await page.goto(`${url}/`);
  await page.locator(`button.variant[data-variant="${variant}"]`).click();
  await options(page);
  for (const [i, choice] of seats.entries()) await page.locator(`select[data-seat="${i}"]`).selectOption(choice);
  await page.locator('#create').click();
  await page.waitForURL(/\/play\/[^?]+$/);
  await page.locator('main.game[data-version], .privacy:not([hidden])').first().waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** A page in a new browser context (`options`: its viewport, a phone's touch...), its errors in the test's output. */
export async function newContextPage(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return { context, page };
}

/**
 * The view response of `seat` in game `id`, as the server at `url` sends it
 * to that seat (its token read from this page's localStorage).
 */
export async function seatViewResponse(url: string, page: Page, id: string, seat = 0): Promise<{ version: number; view: View }> {
  const token = await page.evaluate(
    ([gameId, s]) => JSON.parse(localStorage.getItem(`chesskit:game:${gameId}`) ?? '{}').tokens?.[s],
    [id, String(seat)],
  );
  return (await fetch(`${url}/api/games/${id}/view?token=${token}`)).json();
}

/** The view of `seat` in game `id` (see `seatViewResponse`). */
export async function seatView(url: string, page: Page, id: string, seat = 0): Promise<View> {
  return (await seatViewResponse(url, page, id, seat)).view;
}

/**
 * Wait for the page's next `count` animation frames: by then what a click
 * or a message set off has run, and chessground (which draws at its next
 * frame) has drawn it.
 */
export async function nextFrames(page: Page, count = 2): Promise<void> {
  await page.evaluate(
    n =>
      new Promise<void>(done => {
        const step = (left: number) => (left === 0 ? done() : requestAnimationFrame(() => step(left - 1)));
        step(n);
      }),
    count,
  );
}

/**
 * Wait until the board (or the board `boardSelector` names, such as a book
 * example's) stands still, so that a screenshot shows where the pieces are
 * rather than where they are passing: chessground marks a
 * sliding piece `anim` and a captured one `fading` until its animation
 * ends, and CSS animations and transitions run out (endless ones aside).
 */
export async function boardAtRest(page: Page, boardSelector = '#board'): Promise<void> {
  await nextFrames(page);
  await page.waitForFunction(
    board =>
      !document.querySelector(`${board} piece.anim, ${board} piece.fading`) &&
      document.getAnimations().every(a => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    boardSelector,
    { timeout: 5_000 },
  );
}

/**
 * Move the page's clock (installed with `page.clock.install()` before the page loaded) on a second
 * at a time, each step once the page has drawn, until `done` holds or a minute of page time has
 * passed: a pause the page takes before asking again (a socket's next try, a poll) ends at once
 * instead of being waited out, and what the page does then is still what the test checks.
 */
export async function skipPageTime(page: Page, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let second = 0; second < 60 && !(await done()); second++) {
    await page.clock.fastForward(1_000);
    await nextFrames(page);
  }
}

/** What `watchRequests` gives: a wait for the page to go quiet. */
export interface RequestWatch {
  quiet(timeout?: number): Promise<void>;
}

/**
 * The requests a page makes from now on, so that a test can wait until the
 * page has finished answering what it just did ("nothing was sent", "no
 * request failed") instead of sleeping and hoping.
 */
export function watchRequests(page: Page): RequestWatch {
  const inFlight = new Set<Request>();
  let drained: (() => void)[] = [];
  const drainedWithin = (ms: number) =>
    new Promise<boolean>(resolve => {
      const late = setTimeout(() => resolve(false), ms);
      drained.push(() => {
        clearTimeout(late);
        resolve(true);
      });
    });
  const done = (request: Request) => {
    inFlight.delete(request);
    if (inFlight.size > 0) return;
    const waiting = drained;
    drained = [];
    for (const resolve of waiting) resolve();
  };
  page.on('request', request => inFlight.add(request));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /**
     * Resolves once two frames have passed (so a fetch the last click or
     * message starts has started) with every request answered, answers
     * included that start requests of their own. A request still open
     * after `timeout` ms fails the wait, naming it, rather than hanging.
     */
    async quiet(timeout = 10_000) {
      const until = Date.now() + timeout;
      for (;;) {
        await nextFrames(page);
        if (inFlight.size === 0) return;
        if (!(await drainedWithin(until - Date.now()))) {
          const open = [...inFlight].map(r => `${r.method()} ${r.url()}`).join(', ');
          throw new Error(`the page still waits, after ${timeout} ms, for: ${open}`);
        }
      }
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  await boardAtRest(page);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * A picture of the part of the page `selector` names, rather than of the whole page (whose picture
 * another test takes already). The part's box is measured in one task of the page and the picture
 * cut from the page at that box: a page that draws itself again (the join poll) replaces the
 * element, and a screenshot of the element itself then fails.
 */
export async function screenshotOf(page: Page, selector: string, name: string): Promise<string> {
  await mkdir(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  await page.locator(selector).first().waitFor();
  await boardAtRest(page);
  const clip = await page.evaluate(sel => {
    const r = document.querySelector(sel)!.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  }, selector);
  await page.screenshot({ path, fullPage: true, clip });
  return path;
}

/**
 * The middle of a square on the page's board (or on the board `boardSelector`
 * names, such as a book example's), whichever way the board faces.
 */
export async function squareCenter(page: Page, key: string, boardSelector = '#board'): Promise<{ x: number; y: number }> {
  const board = page.locator(`${boardSelector} cg-board`);
  await board.scrollIntoViewIfNeeded();
  const box = await settledBox(page, board, boardSelector);
  const black = await page.locator(`${boardSelector}.orientation-black`).count();
  const file = key.charCodeAt(0) - 'a'.charCodeAt(0);
  const rank = Number(key[1]) - 1;
  const col = black ? 7 - file : file;
  const row = black ? rank : 7 - rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

/**
 * The board's box once it is where it stays: content still arriving above a board (a book example
 * loading, a view drawing) moves it down the page, and a click aimed at the old place lands on
 * another square or beside the board. Two frames in a row with the same box, for at most 5 s.
 */
async function settledBox(page: Page, board: Locator, boardSelector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = await board.boundingBox();
  for (let frame = 0; frame < 300; frame++) {
    await nextFrames(page, 1);
    const box = await board.boundingBox();
    if (!box) throw new Error(`no board ${boardSelector} on the page`);
    if (last && box.x === last.x && box.y === last.y && box.width === last.width && box.height === last.height) return box;
    last = box;
  }
  throw new Error(`the board ${boardSelector} kept moving for 5 s`);
}

/** How a player presses a point of the page: a mouse's click on a desk, a finger's tap on a phone. */
export type Press = (page: Page, x: number, y: number) => Promise<void>;
export const click: Press = (page, x, y) => page.mouse.click(x, y);
export const tap: Press = (page, x, y) => page.touchscreen.tap(x, y);

export async function clickSquare(page: Page, key: string, boardSelector = '#board', press: Press = click): Promise<void> {
  const { x, y } = await squareCenter(page, key, boardSelector);
  await press(page, x, y);
}

/**
 * Play a move by clicking (`press`: or tapping) the piece, then its
 * destination. One click picks the piece up whenever the page shows a
 * position where it may move. The selection is drawn at chessground's next
 * frame; old squares stay in the page hidden, so only a visible one counts.
 */
export async function clickMove(page: Page, from: string, to: string, boardSelector = '#board', press: Press = click): Promise<void> {
  const selected = page.locator(`${boardSelector} square.selected:visible`).first();
  // A click that came before the board took its position (or while it moved) selects nothing:
  // click the piece again, never while it is selected (a second click would put it down).
  for (let attempt = 1; ; attempt++) {
    await clickSquare(page, from, boardSelector, press);
    try {
      await selected.waitFor({ timeout: 2_000 });
      break;
    } catch (e) {
      if ((await selected.count()) > 0) break;
      if (attempt === 3) throw e;
    }
  }
  await clickSquare(page, to, boardSelector, press);
}

/** Play a move by dragging the piece. */
export async function dragMove(page: Page, from: string, to: string): Promise<void> {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** The texts of the move list's entries. */
export async function logEntries(page: Page): Promise<string[]> {
  return page.locator('.log .entry').allTextContents();
}

/**
 * The number of elements matching `selector` once the board has drawn what it is told: chessground
 * draws at its next animation frame (or later under load), so a count read at once after a wait on
 * the status or the log may be one drawing behind. Looks again at each frame until the count is
 * `expected` (or at least `expected.atLeast`), for at most `timeout` ms, and returns the last count
 * for the caller to assert on.
 */
export async function drawnCount(
  page: Page,
  selector: string,
  expected: number | { atLeast: number },
  timeout = 3_000,
): Promise<number> {
  const [exactly, atLeast] = typeof expected === 'number' ? [expected, expected] : [-1, expected.atLeast];
  try {
    await page.waitForFunction(
      ([sel, exact, least]) => {
        const n = document.querySelectorAll(sel).length;
        return exact >= 0 ? n === exact : n >= least;
      },
      [selector, exactly, atLeast] as const,
      { timeout },
    );
  } catch {
    // the caller's assertion says what was drawn instead
  }
  return page.locator(selector).count();
}

/**
 * Wait until the page shows its game at a version after `version`: the
 * server has moved on (a computer has acted, say) and told the page. A test
 * that reads the view from the API waits on this between looks rather than
 * for a time.
 */
export async function pageVersionAfter(page: Page, version: number, timeout = 20_000): Promise<void> {
  await page.waitForFunction(v => Number(document.querySelector('main.game')?.getAttribute('data-version')) > v, version, { timeout });
}

/** Wait until the move list has at least `n` entries. */
export async function waitForLog(page: Page, n: number, timeout = 15_000): Promise<string[]> {
  await page.waitForFunction(count => document.querySelectorAll('.log .entry').length >= count, n, { timeout });
  return logEntries(page);
}

/** The piece on a square as chessground draws it ("white pawn"), or null. */
export async function pieceAt(page: Page, key: string): Promise<string | null> {
  const { x, y } = await squareCenter(page, key);
  return page.evaluate(
    ([px, py]) => {
      for (const piece of document.querySelectorAll('#board piece:not(.ghost)')) {
        const r = piece.getBoundingClientRect();
        if (px >= r.left && px < r.right && py >= r.top && py < r.bottom) return piece.className.replace(/\s*(anim|fading|dragging)\s*/g, ' ').trim();
      }
      return null;
    },
    [x, y],
  );
}

/** Wait (animations run: looking again at each frame) until a square shows `expected`, and return what it shows. */
export async function settledPieceAt(page: Page, key: string, expected: string | null, timeout = 3000): Promise<string | null> {
  const deadline = Date.now() + timeout;
  let seen = await pieceAt(page, key);
  while (seen !== expected && Date.now() < deadline) {
    await nextFrames(page, 1);
    seen = await pieceAt(page, key);
  }
  return seen;
}
