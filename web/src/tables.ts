// The view's tables, drawn the way the view says (core's view::TableDrawing):
// a track with a coin on it, cells of pieces, counts as stacks of pieces, or
// plain text. The client never learns which game it draws; an unknown
// drawing, or one that does not fit its table, falls back to the text,
// which always says everything.

import { h } from './dom.ts';
import type { TableDrawing, TableView } from './types.ts';

const ROLES: Record<string, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** A chessground piece picture outside the board, named for screen readers. */
export function piecePicture(colour: string, role: string): HTMLElement {
  return h(
    'span.cg-wrap.piece-icon.table-piece',
    { role: 'img', 'aria-label': `${colour} ${role}`, title: `${colour} ${role}`, 'data-piece': `${colour} ${role}` },
    h('piece', { class: `${colour} ${role}` }),
  );
}

/**
 * Text whose FEN letters are pieces (`P N b`, `KR`, `N?`): each letter a
 * picture (upper case white, lower case black, or all of `colour`), spaces
 * dropped, anything else kept as written.
 */
export function pieceNodes(text: string, colour?: string): (Node | string)[] {
  return [...text]
    .filter(c => c !== ' ')
    .map(c => {
      const role = ROLES[c.toLowerCase()];
      if (!role) return c;
      return piecePicture(colour ?? (c === c.toUpperCase() ? 'white' : 'black'), role);
    });
}

/** The track's places in a row, the coin drawn on the one it lies on. */
function drawTrack(t: TableView, coin: number): HTMLElement | null {
  if (coin < 0 || coin >= t.columns.length) return null;
  return h(
    'ol.track',
    { 'aria-label': t.title, 'data-coin': coin },
    t.columns.map((place, i) =>
      h(
        'li.track-place',
        { class: i === coin ? 'has-coin' : '', 'data-place': place },
        i === coin ? h('span.coin', { role: 'img', 'aria-label': 'the coin', title: 'the coin' }) : null,
        h('span.place-name', {}, place),
      ),
    ),
  );
}

/** A table whose listed cells and headers are drawn as pieces. */
function drawPieces(t: TableView, drawing: Extract<TableDrawing, { kind: 'pieces' }>): HTMLElement {
  const header = (c: string, i: number) => h('th', {}, drawing.headers?.includes(i) ? pieceNodes(c, drawing.colour) : c);
  const cell = (c: string, i: number) => {
    if (!drawing.columns.includes(i)) return h('td', {}, c);
    return h('td.pieces', {}, c.trim() ? pieceNodes(c, drawing.colour) : h('span.none', {}, 'none'));
  };
  return h(
    'table.drawn-pieces',
    {},
    h('thead', {}, h('tr', {}, t.columns.map(header))),
    h(
      'tbody',
      {},
      t.rows.map(r => h('tr', {}, r.map(cell))),
    ),
  );
}

/**
 * The counts of one column as stacks: a line per place (top first), and in
 * it each table row's count as that many pieces of its colour. Counts that
 * do not fit the places leave the drawing out.
 */
function drawStacks(t: TableView, drawing: Extract<TableDrawing, { kind: 'stacks' }>): HTMLElement | null {
  const counts = t.rows.map(r => (r[drawing.column] ?? '').trim().split(/\s+/).map(Number));
  const fits = counts.every(c => c.length === drawing.places.length && c.every(n => Number.isInteger(n) && n >= 0 && n <= 64));
  if (!fits || drawing.colours.length < t.rows.length) return null;
  return h(
    'div.stacks',
    { role: 'img', 'aria-label': `${t.columns[drawing.column] ?? t.title}` },
    h('div.stack-row.stack-head', {}, h('span.place-name'), t.rows.map(r => h('span.stack-name', {}, r[0] ?? ''))),
    drawing.places.map((place, p) =>
      h(
        'div.stack-row',
        { 'data-place': place },
        h('span.place-name', {}, place),
        counts.map((c, row) =>
          h(
            'span.stack',
            { 'data-colour': drawing.colours[row], 'data-count': c[p], title: `${t.rows[row][0] ?? ''}: ${c[p]}` },
            Array.from({ length: c[p] }, () => h('span.stack-piece', { class: drawing.colours[row] })),
          ),
        ),
      ),
    ),
  );
}

/** The plain table of text, without the column numbered `drawn` (drawn beside it). */
function textTable(t: TableView, drawn?: number): HTMLElement {
  const kept = <T>(cells: T[]) => cells.filter((_, i) => i !== drawn);
  return h(
    'table',
    {},
    h('caption', {}, t.title),
    h('thead', {}, h('tr', {}, kept(t.columns).map(c => h('th', {}, c)))),
    h(
      'tbody',
      {},
      t.rows.map(r => h('tr', {}, kept(r).map(c => h('td', {}, c)))),
    ),
  );
}

/** Stacks under the text table of the other columns, which still count. */
function drawStacksUnderText(t: TableView, drawing: Extract<TableDrawing, { kind: 'stacks' }>): HTMLElement[] {
  const stacks = drawStacks(t, drawing);
  return stacks ? [textTable(t, drawing.column), stacks] : [];
}

/**
 * One table as its drawing says: a track alone; pieces in place of the
 * text; stacks under the rest of the table.
 */
export function drawTable(t: TableView): HTMLElement {
  const d = t.drawn_as;
  const drawn =
    d?.kind === 'track'
      ? [drawTrack(t, d.coin)]
      : d?.kind === 'pieces'
        ? [drawPieces(t, d)]
        : d?.kind === 'stacks'
          ? drawStacksUnderText(t, d)
          : [];
  const body = drawn[0] ? drawn : [textTable(t)];
  // A text table names itself in its caption; a drawing has a title above it.
  const title = body[0]?.tagName === 'TABLE' ? null : h('div.table-title', {}, t.title);
  return h('div.table-wrap', { 'data-table': t.title, 'data-drawn': body === drawn ? d!.kind : 'text' }, title, body);
}
