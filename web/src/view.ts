// The panels around the board, drawn from a generic View: whose turn and the
// prompt, the outcome, action buttons, card zones, tables, the log, notes.

import { cardFace } from './cards.ts';
import { isKey, viewerSeat } from './boardmodel.ts';
import { h } from './dom.ts';
import type { ActionInfo, CardZone, LogEntry, Outcome, Seat, TableView, View } from './types.ts';

export const seatName = (view: View, seat: Seat | undefined) =>
  seat === undefined ? '' : (view.seats[seat]?.name ?? `Seat ${seat + 1}`);

const list = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** "White wins by checkmate", "Draw by stalemate", with scores when the game keeps them. */
export function outcomeText(view: View, outcome: Outcome): string {
  const reason = outcome.reason ? ` (${outcome.reason})` : '';
  let text: string;
  if (outcome.winners.length === 0) text = `Draw${reason}`;
  else {
    const names = outcome.winners.map(s => seatName(view, s));
    text = `${list(names)} ${names.length === 1 ? 'wins' : 'win'}${reason}`;
  }
  if (outcome.scores) text += ` · scores: ${outcome.scores.map((s, i) => `${seatName(view, i)} ${s}`).join(', ')}`;
  return text;
}

/** Whose turn it is, in words, from the point of view of the viewer. */
export function turnText(view: View): string {
  if (view.outcome) return 'Game over';
  const me = viewerSeat(view);
  const others = view.to_act.filter(s => s !== me).map(s => seatName(view, s));
  if (me !== null && view.to_act.includes(me)) {
    return others.length ? `Your turn (with ${list(others)})` : 'Your turn';
  }
  if (view.to_act.length === 0) return '';
  return me === null ? `${list(others)} to play` : `Waiting for ${list(others)}`;
}

/** The status block: turn, prompt, outcome banner. */
export function renderStatus(view: View): HTMLElement {
  const me = viewerSeat(view);
  const myTurn = me !== null && view.to_act.includes(me) && !view.outcome;
  return h(
    'section.status',
    { 'data-my-turn': myTurn ? 'yes' : 'no' },
    view.outcome ? h('div.outcome', { role: 'status' }, outcomeText(view, view.outcome)) : null,
    view.outcome ? null : h('div.turn', {}, turnText(view)),
    view.prompt && !view.outcome ? h('div.prompt', {}, view.prompt) : null,
    view.check && !view.outcome ? h('div.check-note', {}, 'Check!') : null,
  );
}

/** An action's button text: its label, a card face, or its canonical text. */
export function actionLabel(action: ActionInfo): string {
  if (action.label) return action.label;
  return action.text.replace(/\b(10|[2-9akqjt])([hdsc])\b/gi, m => cardFace(m).text);
}

/**
 * More actions than this in one group (same first word) become a picker
 * instead of a wall of buttons: 16, one for each piece of a side (a burial
 * under any of them), still fits as buttons; 20 counts, 40 guesses, 120
 * assignments do not.
 */
export const MAX_BUTTONS = 16;

/**
 * The actions grouped by their text's first word (`assign`, `count`,
 * `guess`; a one-word text such as `done` is its own group), in the order
 * the game lists them.
 */
export function groupActions(actions: ActionInfo[]): [string, ActionInfo[]][] {
  const groups = new Map<string, ActionInfo[]>();
  for (const a of actions) {
    const word = a.text.split(' ')[0];
    groups.set(word, [...(groups.get(word) ?? []), a]);
  }
  return [...groups];
}

/**
 * The words all these labels start with, cut back to a whole word ("Place
 * checkers 1 to 8 as "), so a picker can show that once and each choice's
 * own part ("RNBQKBNR").
 */
export function commonPrefix(labels: string[]): string {
  if (labels.length < 2) return '';
  let n = 0;
  while (labels.every(l => n < l.length && l[n] === labels[0][n])) n++;
  const prefix = labels[0].slice(0, n);
  const cut = prefix.lastIndexOf(' ');
  return cut < 0 ? '' : prefix.slice(0, cut + 1);
}

/**
 * Buttons for the actions the board cannot offer by a drag: those without
 * from/to (bury c6, done, play 9h, pass). Square-only actions are also
 * clickable on the board; cards also in their zone. A group of more than
 * MAX_BUTTONS actions sharing a first word (120 assignments, 960
 * placements, counts 1 to 20) is a select and a button instead.
 */
export function renderActions(view: View, act: (a: ActionInfo) => void, disabled: boolean): HTMLElement | null {
  const buttons = view.actions.filter(a => !(isKey(a.from) && isKey(a.to)));
  if (!buttons.length) return null;
  const button = (a: ActionInfo) =>
    h('button.action', { type: 'button', 'data-action': a.text, disabled, onclick: () => act(a) }, labelNodes(actionLabel(a)));
  return h(
    'section.actions',
    {},
    h('h3', {}, 'Actions'),
    groupActions(buttons).map(([word, group]) =>
      group.length > MAX_BUTTONS ? actionPicker(word, group, act, disabled) : h('div.buttons', {}, group.map(button)),
    ),
  );
}

/** One group of many actions as a select of their labels (the shared words said once) and a button to play the choice. */
function actionPicker(word: string, group: ActionInfo[], act: (a: ActionInfo) => void, disabled: boolean): HTMLElement {
  const labels = group.map(actionLabel);
  const prefix = commonPrefix(labels);
  const id = `pick-${word.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const go = h('button.action.pick-go', { type: 'button', 'data-group': word, disabled: true }, 'Play');
  const select = h(
    'select.action-select',
    {
      id,
      'data-group': word,
      disabled,
      onchange: () => (go.disabled = disabled || select.value === ''),
    },
    h('option', { value: '', selected: true, disabled: true }, `Choose (${group.length})…`),
    group.map((a, i) => h('option', { value: a.text }, labels[i].slice(prefix.length))),
  );
  go.addEventListener('click', () => {
    const chosen = group.find(a => a.text === select.value);
    if (chosen) act(chosen);
  });
  const title = (prefix.trim().replace(/:$/, '') || word).replace(/^./, c => c.toUpperCase());
  return h('div.action-picker', { 'data-group': word }, h('label', { for: id }, title), h('div.pick-row', {}, select, go));
}

/** A label's text with its card faces (9♥) in their suit colours. */
function labelNodes(label: string): (Node | string)[] {
  return label
    .split(/((?:10|[2-9AKQJ])[♥♦♠♣])/)
    .filter(Boolean)
    .map(part => (/[♥♦♠♣]$/.test(part) ? h('span.suit', { class: /[♥♦]/.test(part) ? 'red' : 'black' }, part) : part));
}

function cardSpan(card: string, onclick?: () => void): HTMLElement {
  const face = cardFace(card);
  return h(
    onclick ? 'button.card.playable' : 'span.card',
    { class: face.red ? 'red' : 'black', 'data-card': card, onclick, type: onclick ? 'button' : undefined },
    face.text,
  );
}

/** Card zones as rows of cards; a card the viewer may play is a button. */
export function renderZones(view: View, act: (a: ActionInfo) => void, disabled: boolean): HTMLElement | null {
  const zones = view.zones ?? [];
  if (!zones.length) return null;
  const playable = (card: string) => {
    const matches = view.actions.filter(a => a.card === card && !a.from && !a.to && !a.square);
    return matches.length === 1 && !disabled ? () => act(matches[0]) : undefined;
  };
  const zone = (z: CardZone) =>
    h(
      'div.zone',
      { 'data-zone': z.name },
      h('div.zone-name', {}, z.owner !== undefined ? `${z.name} · ${seatName(view, z.owner)}` : z.name),
      h(
        'div.cards',
        {},
        z.cards.map(c => cardSpan(c, playable(c))),
        faceDown(z.hidden),
        !z.cards.length && !z.hidden ? h('span.empty', {}, 'empty') : null,
      ),
    );
  return h('section.zones', {}, h('h3', {}, 'Cards'), zones.map(zone));
}

/** Face-down cards: each one while few (a hand), one back with a count for a pile. */
function faceDown(count: number): HTMLElement[] {
  if (count <= 8) return Array.from({ length: count }, () => h('span.card.back', { title: 'face down' }, '🂠'));
  return [h('span.card.back.pile', { title: `${count} cards face down` }, '🂠', h('span.count', {}, String(count)))];
}

export function renderTables(view: View): HTMLElement | null {
  const tables = view.tables ?? [];
  if (!tables.length) return null;
  const table = (t: TableView) =>
    h(
      'div.table-wrap',
      {},
      h(
        'table',
        {},
        h('caption', {}, t.title),
        h('thead', {}, h('tr', {}, t.columns.map(c => h('th', {}, c)))),
        h(
          'tbody',
          {},
          t.rows.map(r => h('tr', {}, r.map(c => h('td', {}, c)))),
        ),
      ),
    );
  return h('section.tables', {}, tables.map(table));
}

/**
 * Rows of the move list: in two-seat games whose entries all name a seat, a
 * numbered row per round (first seat, then second); otherwise one row per
 * entry. Consecutive entries of one seat share a cell (a zombie horde).
 */
export interface LogRow {
  number?: number;
  cells: LogEntry[][];
}

export function logRows(view: View): LogRow[] {
  // Short moves pair up in numbered rows; long announcements read better one to a line.
  const twoSeats = view.seats.length === 2 && view.log.every(e => (e.seat === 0 || e.seat === 1) && e.text.length <= 16);
  if (!twoSeats) return view.log.map(e => ({ cells: [[e]] }));
  const rows: LogRow[] = [];
  for (const entry of view.log) {
    const seat = entry.seat!;
    let row = rows[rows.length - 1];
    const laterSeatPlayed = row && row.cells.slice(seat + 1).some(c => c.length);
    if (!row || laterSeatPlayed) {
      row = { number: rows.length + 1, cells: [[], []] };
      rows.push(row);
    }
    row.cells[seat].push(entry);
  }
  return rows;
}

export function renderLog(view: View): HTMLElement {
  const rows = logRows(view);
  const entry = (e: LogEntry) =>
    h('span.entry', { 'data-seat': e.seat ?? '' }, e.text);
  const body = rows.length
    ? rows.map(r =>
        r.number !== undefined
          ? h('div.log-row.pair', {}, h('span.num', {}, `${r.number}.`), r.cells.map(c => h('span.cell', {}, c.map(entry))))
          : h(
              'div.log-row',
              {},
              r.cells[0][0].seat !== undefined ? h('span.who', {}, seatName(view, r.cells[0][0].seat)) : null,
              entry(r.cells[0][0]),
            ),
      )
    : [h('div.empty', {}, 'No moves yet')];
  return h('section.log-section', {}, h('h3', {}, 'Moves'), h('div.log', { 'aria-live': 'polite' }, body));
}

export function renderNotes(view: View): HTMLElement | null {
  const notes = view.notes ?? [];
  if (!notes.length) return null;
  return h(
    'section.notes',
    {},
    h('h3', {}, 'Your notes'),
    h(
      'ul',
      {},
      notes.map(n => h('li', {}, n)),
    ),
  );
}
