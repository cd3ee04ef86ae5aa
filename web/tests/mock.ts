// A stand-in for the server inside the browser (Playwright routes): serves
// the built client and answers the API from views the test writes, so the
// client can be shown views no registered game makes yet (markers, cards,
// tables, hidden pieces) and seats the test controls.

import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { BrowserContext, WebSocketRoute } from 'playwright-core';
import type { BookExample, GameInfo, SquareView, VariantInfo, View } from '../src/types.ts';
import { DIST } from './harness.ts';

export const ORIGIN = 'http://chesskit.test';

export interface Posted {
  token: string;
  action: string;
}

type Reply = { status: number; body: unknown };

export class MockServer {
  readonly posted: Posted[] = [];
  /** The version each posted action said the page held (`since`); the stand-in answers with whole views. */
  readonly postedSince: (number | undefined)[] = [];
  /** Rules documents (markdown) by variant name; other variants' rules are 404. */
  readonly rules: Record<string, string> = {};
  /** The book's examples by variant name (GET /api/variants/{name}/examples); none for the others, as the real server says. */
  readonly examples: Record<string, BookExample[]> = {};
  /** Views by token ('' is the spectator), each with its version. */
  readonly views = new Map<string, { version: number; view: View }>();
  private readonly sockets = new Map<string, WebSocketRoute[]>();
  /** How many times the page has opened a socket, refused ones included. */
  socketAttempts = 0;
  /** Who `until` has waiting: each is called whenever the stand-in takes a request or a socket, or pushes a view. */
  private waiters: (() => void)[] = [];
  /** More games GET /api/games/{id} knows (the lobby's "Your games"), by id. */
  readonly games = new Map<string, GameInfo>();
  /** The options the game record (export) says the game was created with. */
  recordOptions: Record<string, unknown> = {};
  /** While true the server is down: every API request and WebSocket is refused. */
  unreachable = false;
  /** Bodies posted to /api/games. */
  readonly createdBodies: unknown[] = [];
  /** The answer to POST /api/games; by default 404 (tests that create games set it). */
  onCreate: (body: unknown) => Reply = () => ({ status: 404, body: { error: 'the stand-in creates no games' } });
  /** Bodies posted to /api/games/{id}/rematch. */
  readonly rematchBodies: unknown[] = [];
  /** The answer to POST /api/games/{id}/rematch; by default 404 (tests of the rematch set it). */
  onRematch: (body: unknown) => Reply = () => ({ status: 404, body: { error: 'the stand-in starts no rematch' } });
  /**
   * The answer to a posted action; by default the sender's view again, one version on. A promise
   * holds the answer back (the socket may tell the change first, as the real server's often does).
   */
  onAction: (posted: Posted) => Reply | Promise<Reply> = ({ token }) => {
    const current = this.views.get(token)!;
    return { status: 200, body: { action: 'ok', version: current.version + 1, view: current.view } };
  };

  constructor(
    readonly variants: VariantInfo[],
    readonly info: GameInfo,
    /** Token -> seat. */
    readonly seats: Record<string, number>,
  ) {}

  /** Set a viewer's view and send it to that viewer's open sockets. */
  push(token: string, version: number, view: View): void {
    this.views.set(token, { version, view });
    for (const ws of this.sockets.get(token) ?? []) ws.send(JSON.stringify({ type: 'view', version, view }));
    this.notify();
  }

  /**
   * Resolves once `ready()` holds, looked at each time the stand-in takes a
   * request or a socket, or pushes a view: a test waits for what it means ("the move was
   * posted") rather than for a time. Fails naming `what` after `timeout` ms.
   */
  until(ready: () => boolean, what: string, timeout = 5_000): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const late = setTimeout(() => reject(new Error(`the stand-in server waited ${timeout} ms for: ${what}`)), timeout);
      const look = () => {
        if (!ready()) return void this.waiters.push(look);
        clearTimeout(late);
        resolve();
      };
      this.waiters.push(look);
    });
  }

  private notify(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const look of waiting) look();
  }

  /** Drop every open socket, as a server restart would. */
  dropSockets(): void {
    for (const sockets of this.sockets.values()) for (const ws of sockets) void ws.close({ code: 1012, reason: 'restart' });
    this.sockets.clear();
  }

  async install(context: BrowserContext): Promise<void> {
    await context.routeWebSocket(/\/api\/games\/[^/]+\/ws/, ws => {
      this.socketAttempts++;
      this.notify();
      if (this.unreachable) return void ws.close({ code: 1011, reason: 'down' });
      const token = new URL(ws.url()).searchParams.get('token') ?? '';
      this.sockets.set(token, [...(this.sockets.get(token) ?? []), ws]);
      const current = this.views.get(token);
      if (current) ws.send(JSON.stringify({ type: 'view', ...current }));
    });
    await context.route(`${ORIGIN}/**`, async route => {
      const request = route.request();
      const url = new URL(request.url());
      const path = url.pathname;
      if (this.unreachable && path.startsWith('/api/')) return route.abort('connectionrefused');
      const json = (status: number, body: unknown) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
      if (path === '/api/variants') return json(200, this.variants);
      if (path === '/api/games' && request.method() === 'POST') {
        const body = JSON.parse(request.postData() ?? '{}');
        this.createdBodies.push(body);
        const reply = this.onCreate(body);
        return json(reply.status, reply.body);
      }
      const rules = /^\/api\/variants\/([^/]+)\/rules$/.exec(path);
      if (rules) {
        const text = this.rules[decodeURIComponent(rules[1])];
        if (text === undefined) return json(404, { error: 'no rules document' });
        return route.fulfill({ status: 200, contentType: 'text/markdown; charset=utf-8', body: text });
      }
      const examples = /^\/api\/variants\/([^/]+)\/examples$/.exec(path);
      if (examples) return json(200, this.examples[decodeURIComponent(examples[1])] ?? []);
      // The lobby's lists (docs/api.md, "The lobby"): nobody waits and nothing is played here.
      if (path === '/api/challenges' || path === '/api/live') return json(200, []);
      const game = /^\/api\/games\/([^/]+)(\/[a-z]+)?$/.exec(path);
      if (game) {
        const other = this.games.get(decodeURIComponent(game[1]));
        if (other && game[2] === undefined) return json(200, other);
        if (game[1] !== this.info.id) return json(404, { error: 'no such game' });
        const token = url.searchParams.get('token') ?? '';
        switch (game[2]) {
          case undefined:
            return json(200, this.info);
          case '/view': {
            const current = this.views.get(token);
            if (!current) return json(403, { error: 'wrong token' });
            const seat = token ? this.seats[token] : null;
            return json(200, { id: this.info.id, variant: this.info.variant, title: this.info.title, seat, ...current });
          }
          case '/rematch': {
            const body = JSON.parse(request.postData() ?? '{}');
            this.rematchBodies.push(body);
            const reply = this.onRematch(body);
            return json(reply.status, reply.body);
          }
          case '/export':
            return json(200, { variant: this.info.variant, options: this.recordOptions, seed: 1, actions: [] });
          case '/actions': {
            const { since, ...posted } = JSON.parse(request.postData() ?? '{}') as Posted & { since?: number };
            this.posted.push(posted);
            this.postedSince.push(since);
            this.notify();
            const reply = await this.onAction(posted);
            return json(reply.status, reply.body);
          }
          default:
            return json(404, { error: 'not here' });
        }
      }
      if (path.startsWith('/api/')) return json(404, { error: 'not here' });
      const file = path.startsWith('/assets/') ? normalize(join(DIST, path)) : join(DIST, 'index.html');
      if (!file.startsWith(DIST)) return route.fulfill({ status: 404 });
      const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.map': 'application/json', '.svg': 'image/svg+xml' };
      try {
        return route.fulfill({ status: 200, contentType: types[extname(file)] ?? 'application/octet-stream', body: await readFile(file) });
      } catch {
        return route.fulfill({ status: 404 });
      }
    });
  }
}

/** The pieces of the orthodox start, as a board view lists them. */
export function startSquares(): SquareView[] {
  const back = ['rook', 'knight', 'bishop', 'queen', 'king', 'bishop', 'knight', 'rook'];
  const squares: SquareView[] = [];
  [...'abcdefgh'].forEach((file, i) => {
    squares.push({ square: `${file}1`, piece: { colour: 'white', role: back[i] } });
    squares.push({ square: `${file}2`, piece: { colour: 'white', role: 'pawn' } });
    squares.push({ square: `${file}7`, piece: { colour: 'black', role: 'pawn' } });
    squares.push({ square: `${file}8`, piece: { colour: 'black', role: back[i] } });
  });
  return squares;
}

export const WHITE_BLACK = [
  { name: 'White', colour: 'white' },
  { name: 'Black', colour: 'black' },
];

export function demoVariant(hidden: boolean): VariantInfo {
  return {
    name: 'demo',
    title: 'Demo Kit',
    seats: ['White', 'Black'],
    options: [
      { name: 'zombie_turn', type: 'bool', default: false, help: 'Zombies move first' },
      { name: 'coins', type: 'int', min: 1, max: 8, default: 4, help: 'How many coins' },
      { name: 'deck', type: 'choice', choices: ['short', 'full'], default: 'full', help: 'Which deck' },
    ],
    experimental: true,
    hidden_information: hidden,
    pgn: !hidden,
    summary: 'A stand-in game that uses every part of the generic view.',
    min_players: 2,
    max_players: 2,
    analysis: false,
  };
}

export function gameInfo(id: string, kinds: string[]): GameInfo {
  return {
    id,
    variant: 'demo',
    title: 'Demo Kit',
    seats: kinds.map((kind, seat) => ({ seat, name: WHITE_BLACK[seat].name, kind })),
    to_act: [0],
    over: false,
    outcome: null,
    version: 0,
    created: 0,
    updated: 0,
  };
}

/** A view with a bit of everything: markers, a hidden piece, cards, a table, notes, every kind of action. */
export function richView(): View {
  return {
    variant: 'demo',
    viewer: { seat: 0 },
    seats: WHITE_BLACK,
    board: {
      files: 8,
      ranks: 8,
      squares: [
        { square: 'e1', piece: { colour: 'white', role: 'king' } },
        { square: 'h1', piece: { colour: 'white', role: 'rook' } },
        { square: 'd1', piece: { colour: 'white', role: 'queen' }, markers: [{ kind: 'chosen', draw: [{ shape: 'ring', colour: 'green' }] }] },
        { square: 'b3', piece: { colour: 'white', role: 'bishop' }, markers: [{ kind: 'mirror', text: 'L', draw: [{ shape: 'badge', corner: 'top_left', fill: '#90caf9', rim: '#0d47a1', text: 'L' }] }] },
        { square: 'a7', piece: { colour: 'white', role: 'pawn' } },
        { square: 'e2', piece: { colour: 'white', role: 'pawn' } },
        { square: 'c6', piece: { colour: 'white', role: 'knight' }, markers: [{ kind: 'burial', text: 'P', draw: [{ shape: 'badge', corner: 'top_right', fill: 'black', rim: '#6d4c41', text: 'P' }] }] },
        { square: 'd4', piece: { colour: 'black', role: 'pawn' }, markers: [{ kind: 'zombie', draw: [{ shape: 'badge', corner: 'bottom_left', fill: 'gold', rim: '#7a5c00', text: 'Z' }] }] },
        { square: 'f6', piece: { colour: 'black', label: '7' } },
        { square: 'g4', markers: [{ kind: 'checkers', colour: 'red', count: 3, draw: [{ shape: 'stack', fill: 'red', text: '3' }] }] },
        { square: 'h8', piece: { colour: 'black', role: 'rook' }, markers: [{ kind: 'label', text: '★' }] },
        { square: 'e8', piece: { colour: 'black', role: 'king' } },
      ],
    },
    zones: [
      { name: 'Your hand', owner: 0, cards: ['9h', 'qs', '10d', 'ac'], hidden: 0 },
      { name: 'Deck', cards: [], hidden: 30 },
      { name: 'Hand', owner: 1, cards: [], hidden: 4 },
    ],
    tables: [{ title: 'Your burials', columns: ['Square', 'Piece'], rows: [['c6', 'P']] }],
    log: [
      { seat: 0, text: 'e4' },
      { seat: 1, text: 'd5' },
      { seat: 0, text: 'exd5' },
      { text: 'White buried a piece' },
      { seat: 1, text: 'Qxd5' },
    ],
    notes: ['You buried the pawn under c6.'],
    prompt: 'Move, bury a piece, or play a card',
    to_act: [0],
    actions: [
      ...['q', 'r', 'b', 'n'].map(p => ({ text: `a7a8${p}`, from: 'a7', to: 'a8', promotion: p })),
      { text: 'e2e4', from: 'e2', to: 'e4' },
      { text: 'e2e3', from: 'e2', to: 'e3' },
      { text: 'bury c6', square: 'c6' },
      { text: 'bury e2', square: 'e2' },
      { text: 'play 9h', card: '9h' },
      { text: 'done', label: 'Done' },
    ],
    last_move: ['d7', 'd4'],
    check: 'e1',
  };
}

