// Turning a generic View into what the board draws: pieces, legal
// destinations, highlights and marker shapes. Pure functions, no DOM, so
// they are unit-tested in node (tests/boardmodel.test.ts).

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Color, Dests, Key, Piece, Role } from '@lichess-org/chessground/types';
import type { ActionInfo, BoardView, Marker, MarkerDrawing, PieceView, Seat, View, Corner as ViewCorner } from './types.ts';

/** The six roles chessground has pictures for; any other role is drawn as a disc. */
const ROLES = new Set(['pawn', 'knight', 'bishop', 'rook', 'queen', 'king']);

/**
 * The role chessground is given for a hidden piece (or a role it has no
 * picture for): app.css draws `piece.hidden` as a plain disc of its colour.
 */
export const HIDDEN_ROLE = 'hidden' as Role;

export interface BoardModel {
  orientation: Color;
  turnColor: Color;
  pieces: Map<Key, Piece>;
  /** Which pieces the viewer may pick up: undefined when none may move. */
  movableColor?: Color | 'both';
  dests: Dests;
  /** Actions by `from + to`: several share a pair when they differ by promotion (or anything else). */
  moves: Map<string, ActionInfo[]>;
  /** Actions that concern one square only (a burial, a checker placement). */
  squareActions: Map<Key, ActionInfo[]>;
  lastMove?: Key[];
  check?: Key;
  /** CSS classes for squares: `check`, `checker` (giving a check that ended the game), `inactive` (off the board in play), `target` (a square action). */
  classes: Map<Key, string>;
  shapes: DrawShape[];
}

export function isKey(square: string | undefined): square is Key {
  return !!square && /^[a-h][1-8]$/.test(square);
}

export const ALL_KEYS: Key[] = [...'abcdefgh'].flatMap(f => [...'12345678'].map(r => `${f}${r}` as Key));

export function asColor(colour: string | undefined): Color | undefined {
  return colour === 'white' || colour === 'black' ? colour : undefined;
}

/** The seat a view was computed for, or null for a spectator (or a team). */
export function viewerSeat(view: View): Seat | null {
  const viewer = view.viewer;
  return viewer && typeof viewer === 'object' && 'seat' in viewer ? viewer.seat : null;
}

/** The colour a seat plays, White when the game names none. */
export function seatColor(view: View, seat: Seat | null): Color {
  return (seat !== null && asColor(view.seats[seat]?.colour)) || 'white';
}

export function pieceOf(view: PieceView): Piece {
  const color = asColor(view.colour) ?? 'white';
  return view.role && ROLES.has(view.role) ? { role: view.role as Role, color } : { role: HIDDEN_ROLE, color };
}

export const moveKey = (from: string, to: string) => from + to;

/**
 * Whether the game marks this action as one that cannot be right (Cloak and
 * Dagger's guesses its grid already rules out: their label ends "(already
 * ruled out)"). Such choices are greyed, and a square only they are offered
 * on is not ringed.
 */
export function isRuledOut(action: ActionInfo): boolean {
  return /\(?(already )?ruled out\)?\s*$/i.test(action.label ?? '');
}

export function boardModel(view: View): BoardModel {
  const board: BoardView = view.board ?? { files: 8, ranks: 8, squares: [] };
  const seat = viewerSeat(view);
  const pieces = new Map<Key, Piece>();
  const shapes: DrawShape[] = [];
  for (const sq of board.squares) {
    if (!isKey(sq.square)) continue;
    if (sq.piece) {
      pieces.set(sq.square, pieceOf(sq.piece));
      shapes.push(...pieceLabelShapes(sq.square, sq.piece));
    }
    for (const marker of sq.markers ?? []) shapes.push(markerShape(sq.square, marker, !!sq.piece));
  }

  const dests: Dests = new Map();
  const moves = new Map<string, ActionInfo[]>();
  const squareActions = new Map<Key, ActionInfo[]>();
  for (const action of view.actions) {
    if (isKey(action.from) && isKey(action.to)) {
      const k = moveKey(action.from, action.to);
      if (!moves.has(k)) {
        moves.set(k, []);
        dests.set(action.from, [...(dests.get(action.from) ?? []), action.to]);
      }
      moves.get(k)!.push(action);
    } else if (isKey(action.square) && !action.from && !action.to) {
      squareActions.set(action.square, [...(squareActions.get(action.square) ?? []), action]);
    }
  }

  const classes = new Map<Key, string>();
  const addClass = (key: Key, name: string) => classes.set(key, [classes.get(key), name].filter(Boolean).join(' '));
  if (board.active) {
    const active = new Set(board.active);
    for (const key of ALL_KEYS) if (!active.has(key)) addClass(key, 'inactive');
  }
  for (const [key, list] of squareActions) if (list.some(a => !isRuledOut(a))) addClass(key, 'target');
  const check = isKey(view.check) ? view.check : undefined;
  if (check) addClass(check, 'check');
  // At a checkmate-like end: the pieces that give the check too, each with an arrow to the king.
  if (check && view.outcome) {
    for (const checker of (view.checkers ?? []).filter(isKey)) {
      addClass(checker, 'checker');
      shapes.push({ orig: checker, dest: check, brush: 'red' });
    }
  }

  const movers = new Set([...dests.keys()].map(k => pieces.get(k)?.color));
  const movableColor =
    dests.size === 0 ? undefined : movers.size === 1 && !movers.has(undefined) ? [...movers][0] : 'both';
  const lastMove = (view.last_move ?? []).filter(isKey);
  const firstToAct = view.to_act[0];

  const seatToAct = firstToAct === undefined ? seatColor(view, seat) : seatColor(view, firstToAct);

  return {
    orientation: seatColor(view, seat),
    // Chessground picks up a piece of one movable colour only on that colour's turn. A seat's colour
    // is not always the colour it moves: a solitaire's seat has none (White by default) and moves
    // Black's pieces too (Neighbour, Parade), so when only one colour may move, that side is to move.
    turnColor: movableColor === 'white' || movableColor === 'black' ? movableColor : seatToAct,
    pieces,
    movableColor,
    dests,
    moves,
    squareActions,
    lastMove: lastMove.length ? lastMove : undefined,
    check,
    classes,
    shapes,
  };
}

/** The changes that turn the board's pieces into `next` (undefined removes a piece). */
export function piecesDiff(current: Map<Key, Piece>, next: Map<Key, Piece>): Map<Key, Piece | undefined> {
  const diff = new Map<Key, Piece | undefined>();
  for (const key of current.keys()) if (!next.has(key)) diff.set(key, undefined);
  for (const [key, piece] of next) {
    const old = current.get(key);
    if (!old || old.role !== piece.role || old.color !== piece.color) diff.set(key, piece);
  }
  return diff;
}

// ---- Markers as SVG on a 100x100 square -------------------------------------------------

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** CSS colours for the colour words of the views. */
export function paint(colour: string | undefined, fallback: string): string {
  switch (colour) {
    case 'white':
      return '#f7f3e8';
    case 'black':
      return '#262421';
    case 'red':
      return '#c62828';
    case 'blue':
      return '#1565c0';
    case 'green':
      return '#2e7d32';
    case 'gold':
    case 'yellow':
      return '#d4a017';
    default:
      return colour && /^#[0-9a-f]{3,8}$/i.test(colour) ? colour : fallback;
  }
}

const ink = (fill: string) => (['#f7f3e8', '#d4a017'].includes(fill) ? '#222' : '#fff');

type Corner = 'tl' | 'tr' | 'bl' | 'br';
const CORNER: Record<Corner, [number, number]> = { tl: [18, 18], tr: [82, 18], bl: [18, 82], br: [82, 82] };
/** The view's corner names (core's view::Corner). */
const CORNER_OF: Record<ViewCorner, Corner> = {
  top_left: 'tl',
  top_right: 'tr',
  bottom_left: 'bl',
  bottom_right: 'br',
};

/** A round badge with a short text in one corner of the square. */
function badge(corner: Corner, fill: string, text: string, stroke = '#000'): string {
  const [x, y] = CORNER[corner];
  const size = text.length > 2 ? 11 : 15;
  return (
    `<circle cx="${x}" cy="${y}" r="15" fill="${fill}" stroke="${stroke}" stroke-width="2.5" fill-opacity="0.95"/>` +
    `<text x="${x}" y="${y + size * 0.36}" font-size="${size}" font-family="sans-serif" font-weight="bold" ` +
    `text-anchor="middle" fill="${ink(fill)}">${escapeXml(text)}</text>`
  );
}

const svg = (orig: Key, html: string, kind: string): DrawShape => ({
  orig,
  customSvg: { html: `<g class="marker marker-${escapeXml(kind)}">${html}</g>` },
});

/** A stack of discs with its count: in the top right corner over a piece, big in the middle of an empty square. */
function stack(fill: string, count: string, occupied: boolean): string {
  const [x, y, scale] = occupied ? [...CORNER.tr, 1] : [50, 50, 2.4];
  const layers = [6, 3, 0]
    .map(d => `<ellipse cx="${x}" cy="${y + d * scale}" rx="${15 * scale}" ry="${8 * scale}" fill="${fill}" stroke="#000" stroke-width="2"/>`)
    .join('');
  return (
    layers +
    `<text x="${x}" y="${y + 5 * scale}" font-size="${13 * scale}" font-family="sans-serif" font-weight="bold" ` +
    `text-anchor="middle" fill="${ink(fill)}">${escapeXml(count)}</text>`
  );
}

/** A ring round the square; a dashed one is a pencil line with a thin solid line under it. */
function ring(colour: string, dashed: boolean): string {
  if (!dashed) return `<circle cx="50" cy="50" r="45" fill="none" stroke="${colour}" stroke-width="6"/>`;
  return (
    `<circle cx="50" cy="50" r="42" fill="none" stroke="${colour}" stroke-width="6" stroke-dasharray="10 6"/>` +
    `<circle cx="50" cy="50" r="42" fill="none" stroke="${colour}" stroke-width="2"/>`
  );
}

/** A large disc, its words under it: the first word on one line, the rest on the next. */
function disc(fill: string, text: string): string {
  const [first, ...rest] = text.split(' ');
  return (
    `<circle cx="50" cy="42" r="28" fill="${fill}" stroke="#000" stroke-width="3"/>` +
    `<circle cx="50" cy="42" r="18" fill="none" stroke="#fff" stroke-width="2" stroke-opacity="0.6"/>` +
    `<text x="50" y="88" font-size="14" font-family="sans-serif" font-weight="bold" text-anchor="middle" ` +
    `fill="#fff">${escapeXml(first ?? '')}</text><text x="50" y="100" font-size="12" font-family="sans-serif" ` +
    `text-anchor="middle" fill="#fff">${escapeXml(rest.join(' '))}</text>`
  );
}

/** One layer of a marker as the game declares it (core's view::MarkerDrawing). */
function layer(drawing: MarkerDrawing, occupied: boolean): string {
  switch (drawing.shape) {
    case 'badge':
      return badge(CORNER_OF[drawing.corner], paint(drawing.fill, '#455a64'), drawing.text, paint(drawing.rim, '#000'));
    case 'stack':
      return stack(paint(drawing.fill, '#c62828'), drawing.text, occupied);
    case 'ring':
      return ring(paint(drawing.colour, '#2e7d32'), !!drawing.dashed);
    case 'disc':
      return disc(paint(drawing.fill, '#c62828'), drawing.text);
    case 'frame':
      return (
        `<rect x="3" y="3" width="94" height="94" fill="${paint(drawing.fill, '#8d6e63')}" fill-opacity="0.3" ` +
        `stroke="${paint(drawing.rim, '#5d4037')}" stroke-width="6"/>`
      );
    case 'tint':
      return `<rect x="0" y="0" width="100" height="100" fill="${paint(drawing.fill, '#ffb300')}" fill-opacity="0.22"/>`;
  }
}

/**
 * The drawing of one marker: its layers as the view declares them (coins,
 * stacks and letters in the corners, rings and frames round the square), so
 * the board draws any game's markers without knowing them. A marker that
 * declares none is a badge of its text (or its kind's initial).
 */
export function markerShape(square: Key, marker: Marker, occupied = true): DrawShape {
  const layers = marker.draw ?? [];
  const html = layers.length
    ? layers.map(d => layer(d, occupied)).join('')
    : badge('tl', paint(marker.colour, '#455a64'), marker.text || marker.kind.slice(0, 1).toUpperCase());
  return svg(square, html, marker.kind);
}

/** A piece's label: in the middle of a disc (hidden pieces), else in a corner. */
export function pieceLabelShapes(square: Key, piece: PieceView): DrawShape[] {
  const known = piece.role && ROLES.has(piece.role);
  const text = piece.label ?? (known || !piece.role ? undefined : piece.role.slice(0, 1).toUpperCase());
  if (!text) return [];
  if (known) return [svg(square, badge('tr', '#455a64', text), 'piece-label')];
  const color = asColor(piece.colour) ?? 'white';
  const size = text.length > 2 ? 26 : 38;
  return [
    svg(
      square,
      `<text x="50" y="${50 + size * 0.35}" font-size="${size}" font-family="sans-serif" font-weight="bold" ` +
        `text-anchor="middle" fill="${color === 'white' ? '#222' : '#f5f5f5'}">${escapeXml(text)}</text>`,
      'piece-label',
    ),
  ];
}
