// Additions to the stand-in server (tests/mock.ts) for the board's tests:
// past views for `GET /api/games/{id}/view?at=N` (docs/api.md, `at=N`; "Stepping
// back through the moves"), and views shaped like Masquerade's and Cloak
// and Dagger's (their action texts and labels as crates/games writes them,
// and as docs/games/cloak-and-dagger.md "Labels" documents them).

import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { ActionInfo, Marker, SquareView, View } from '../src/types.ts';
import { MockServer, ORIGIN, WHITE_BLACK, demoVariant, gameInfo, startSquares } from './mock.ts';

/** Every `at` request the page made, as `token:N`. */
export const historyRequests: string[] = [];

/**
 * Answer `/view?at=N` from `past` (token -> the view after N actions, index
 * N); N beyond the live version is a 400 naming the limit, as the contract
 * says. Registered after `server.install`, so it is asked first.
 */
export async function installHistory(context: BrowserContext, server: MockServer, past: Map<string, View[]>): Promise<void> {
  await context.route(/\/api\/games\/[^/]+\/view\?/, route => {
    const url = new URL(route.request().url());
    const at = url.searchParams.get('at');
    if (at === null) return route.fallback();
    const token = url.searchParams.get('token') ?? '';
    historyRequests.push(`${token}:${at}`);
    const live = server.views.get(token);
    const n = Number(at);
    const json = (status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (!live) return json(403, { error: 'wrong token' });
    if (!Number.isInteger(n) || n < 0) return json(400, { error: `at must be a whole number from 0 to ${live.version}` });
    if (n > live.version) return json(400, { error: `at ${n} is past the game's ${live.version} actions` });
    const view = n === live.version ? live.view : past.get(token)?.[n];
    if (!view) return json(500, { error: `the stand-in has no view at ${n}` });
    const seat = token ? server.seats[token] : null;
    return json(200, { id: server.info.id, variant: server.info.variant, title: server.info.title, seat, version: n, view });
  });
}

/** A chess position after `moves` (from, to) pairs from the start, as a view for seat 0. */
export function chessView(moves: [string, string][], extra: Partial<View> = {}): View {
  const board = new Map<string, SquareView>();
  for (const s of startSquares()) board.set(s.square, s);
  const log = [];
  for (const [i, [from, to]] of moves.entries()) {
    const piece = board.get(from)!;
    board.delete(from);
    board.set(to, { square: to, piece: piece.piece });
    log.push({ seat: i % 2, text: `${from}${to}` });
  }
  const last = moves[moves.length - 1];
  return {
    variant: 'demo',
    viewer: { seat: 0 },
    seats: WHITE_BLACK,
    board: { files: 8, ranks: 8, squares: [...board.values()] },
    log,
    to_act: [moves.length % 2],
    actions: [],
    last_move: last ? [...last] : undefined,
    ...extra,
  };
}

const TYPES = ['K', 'Q', 'R', 'B', 'N'];

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map(p => [x, ...p]));
}

/** Masquerade's 120 assignments, text, label and pick as crates/games/src/masquerade writes them (main's labels, in words). */
export function assignActions(): ActionInfo[] {
  const name: Record<string, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
  return permutations(TYPES).map(p => ({
    text: `assign ${TYPES.map((t, i) => t + p[i]).join(' ')}`,
    label: `Your opponent's ${TYPES.map((t, i) => `${name[t]}${i ? '' : ' captures'} like a ${name[p[i]]}`).join(', ')}`,
    pick: { kind: 'assignment', pieces: TYPES.join(''), captures: p.join('') },
  }));
}

export function masqueradeSetupView(): View {
  return {
    variant: 'masquerade',
    viewer: { seat: 0 },
    seats: WHITE_BLACK,
    board: { files: 8, ranks: 8, squares: startSquares() },
    log: [],
    prompt: "Assign Black's captures in secret: give each of their piece types the capture of one piece type, using each capture once.",
    to_act: [0, 1],
    actions: assignActions(),
  };
}

/**
 * The 960 Chess960 back ranks (the king between the rooks, the bishops on
 * squares of both colours: Cloak and Dagger's placement rule), computed
 * here from the rule, not copied.
 */
export function chess960Ranks(): string[] {
  const all = new Set(permutations([...'RNBQKBNR']).map(p => p.join('')));
  return [...all].filter(r => {
    const b = [...r].flatMap((c, i) => (c === 'B' ? [i % 2] : []));
    const rooks = [...r].flatMap((c, i) => (c === 'R' ? [i] : []));
    const k = r.indexOf('K');
    return b[0] !== b[1] && rooks[0] < k && k < rooks[1];
  });
}

/** A cloaked checker's marker as crates/games/src/cloak_and_dagger draws it: a slate badge bottom left. */
const cloaked = (colour: string): Marker => ({
  kind: 'cloaked',
  colour,
  draw: [{ shape: 'badge', corner: 'bottom_left', fill: '#455a64', rim: 'white', text: 'C' }],
});

/** Cloak and Dagger's secret placement for White: numbered hidden checkers on both back ranks, the 960 placements offered. */
export function cloakSetupView(): View {
  const squares: SquareView[] = [];
  [...'abcdefgh'].forEach((f, i) => {
    squares.push({ square: `${f}1`, piece: { colour: 'white', label: String(i + 1) }, markers: [cloaked('white')] });
    squares.push({ square: `${f}2`, piece: { colour: 'white', role: 'pawn' } });
    squares.push({ square: `${f}7`, piece: { colour: 'black', role: 'pawn' } });
    squares.push({ square: `${f}8`, piece: { colour: 'black', label: String(i + 1) }, markers: [cloaked('black')] });
  });
  const name: Record<string, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
  return {
    variant: 'cloak-and-dagger',
    viewer: { seat: 0 },
    seats: WHITE_BLACK,
    board: { files: 8, ranks: 8, squares },
    log: [],
    prompt: 'Place your checkers in secret.',
    to_act: [0, 1],
    actions: chess960Ranks().map(r => ({
      text: `place ${r}`,
      label: `Checkers 1 to 8 (files a to h): ${[...r].map(c => name[c]).join(', ')}`,
      pick: { kind: 'placement', roles: r },
    })),
  };
}

/**
 * A Cloak and Dagger turn for White with everything the board must handle
 * at once (the stand-in does not care that a real game offers them at
 * different steps): a bonus move owed (`bonus e2e4` and the regular `e2e4`
 * share their squares, labelled as the game labels them), guesses on a8
 * of which two are already ruled out, and uncloaking the checker on b1.
 */
export function cloakTurnView(): View {
  // As crates/games/src/cloak_and_dagger/action.rs declares them.
  const UNCLOAK_WARNING = 'This cannot be undone: your opponent will see this piece for the rest of the game.';
  const BONUS = { kind: 'group', name: 'bonus', caption: 'Make your bonus move…' } as const;
  const UNCLOAK = { kind: 'group', name: 'uncloak', caption: 'Uncloak a checker…' } as const;
  const setup = cloakSetupView();
  const squares = setup.board!.squares.map(s =>
    s.square.endsWith('1') ? { ...s, piece: { ...s.piece!, role: ({ a: 'rook', b: 'knight', c: 'bishop', d: 'queen', e: 'king', f: 'bishop', g: 'knight', h: 'rook' } as Record<string, string>)[s.square[0]] } } : s,
  );
  const guess = (role: string, letter: string, ruledOut: boolean): ActionInfo => ({
    text: `guess a8 ${letter}`,
    square: 'a8',
    label: `Guess: the checker on a8 is a ${role}${ruledOut ? ' (already ruled out)' : ' (gives up your bonus move)'}`,
  });
  return {
    ...setup,
    board: { ...setup.board!, squares },
    prompt: 'Your opponent guessed wrong: you may first make a bonus move.',
    to_act: [0],
    actions: [
      { text: 'bonus e2e4', from: 'e2', to: 'e4', label: 'e2-e4 as your bonus move (you keep your turn)', pick: BONUS },
      { text: 'bonus d2d3', from: 'd2', to: 'd3', label: 'd2-d3 as your bonus move (you keep your turn)', pick: BONUS },
      { text: 'e2e4', from: 'e2', to: 'e4', label: 'e2-e4 as your regular move (gives up your bonus move)' },
      guess('king', 'K', true),
      guess('queen', 'Q', false),
      guess('rook', 'R', false),
      guess('bishop', 'B', true),
      guess('knight', 'N', false),
      { text: 'uncloak b1', square: 'b1', label: 'Uncloak your checker on b1', confirm: UNCLOAK_WARNING, pick: UNCLOAK },
      { text: 'done', label: 'End your turn' },
    ],
  };
}

export const DESKTOP = { viewport: { width: 1366, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * A one-seat game page on the stand-in server showing `view` (token t0) on a desktop or a phone
 * (`size`, with any other options of the browser context, such as its reduced motion);
 * an action is taken at once, and leaves the seat nothing more to do.
 */
export async function openBoardPage(
  browser: Browser,
  view: View,
  size: BrowserContextOptions = DESKTOP,
  hidden = true,
): Promise<{ page: Page; server: MockServer; context: BrowserContext }> {
  const server = new MockServer([{ ...demoVariant(hidden), name: view.variant }], { ...gameInfo('b1', ['human', 'computer']), variant: view.variant }, { t0: 0 });
  server.views.set('t0', { version: 3, view });
  server.onAction = ({ action }) => {
    const done = { ...view, actions: [], to_act: [1], prompt: 'Waiting.' };
    server.views.set('t0', { version: 4, view: done });
    return { status: 200, body: { action, version: 4, view: done } };
  };
  const context = await browser.newContext(size);
  await server.install(context);
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  await page.goto(`${ORIGIN}/play/b1?token=t0`);
  await page.locator('main.game[data-version="3"]').waitFor();
  return { page, server, context };
}
