// The panels around the board, drawn from a generic View: whose turn and the
// prompt, the outcome, action buttons, card zones, tables, the log, notes.

import { cardChip, cardCodesIn, cardFace, cardPiece, withCardFaces } from './cards.ts';
import { isKey, viewerSeat } from './boardmodel.ts';
import { h } from './dom.ts';
import { drawTable } from './tables.ts';
import type { ActionInfo, CardZone, LogEntry, Outcome, Seat, View } from './types.ts';

export const seatName = (view: View, seat: Seat | undefined) =>
  seat === undefined ? '' : (view.seats[seat]?.name ?? `Seat ${seat + 1}`);

export const list = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** "White wins by checkmate", "Draw by stalemate", with scores when the game keeps them. */
export function outcomeText(view: View, outcome: Outcome): string {
  return outcomeWords(view.seats.map((_, i) => seatName(view, i)), outcome);
}

/** The outcome in words, given the seats' names: "Black wins (checkmate)", "Draw agreed", "Game aborted: no winner". */
export function outcomeWords(names: string[], outcome: Outcome): string {
  const name = (s: Seat) => names[s] ?? `Seat ${s + 1}`;
  let text: string;
  if (outcome.reason === 'aborted' && outcome.winners.length === 0) text = 'Game aborted: no winner';
  else if (outcome.reason === 'draw agreed' && outcome.winners.length === 0) text = 'Draw agreed';
  else {
    const reason = outcome.reason ? ` (${outcome.reason})` : '';
    // One seat and no winner is a lost solitaire, not a draw.
    if (outcome.winners.length === 0) text = names.length === 1 ? `${name(0)} lost${reason}` : `Draw${reason}`;
    else {
      const winners = outcome.winners.map(name);
      text = `${list(winners)} ${winners.length === 1 ? 'wins' : 'win'}${reason}`;
    }
  }
  if (outcome.scores) text += ` · scores: ${outcome.scores.map((s, i) => `${name(i)} ${s}`).join(', ')}`;
  return text;
}

/** A piece on the view's board in words ("the black queen on h4"), or the square alone. */
function pieceOn(view: View, square: string): string {
  const piece = view.board?.squares.find(s => s.square === square)?.piece;
  if (!piece) return square;
  return `the ${[piece.colour, piece.role ?? 'piece'].join(' ')} on ${square}`;
}

/**
 * Why the game ended, as a sentence a player reads beside the board: the
 * outcome's reason explained for the reasons many games share, the king in
 * check and what gives it when the view names them, else the game's own
 * words. Null when the game is not over.
 */
export function outcomeReason(view: View): string | null {
  const outcome = view.outcome;
  if (!outcome) return null;
  const reason = outcome.reason.trim();
  const losers = view.seats.map((_, i) => i).filter(i => !outcome.winners.includes(i));
  const loser = outcome.winners.length && losers.length ? list(losers.map(s => seatName(view, s))) : undefined;
  if (/^checkmate\b/i.test(reason)) {
    const king = view.check ? pieceOn(view, view.check) : loser ? `${loser}’s king` : 'the king';
    const by = (view.checkers ?? []).map(s => pieceOn(view, s));
    const attacked = by.length ? `${king} is attacked by ${list(by)}` : `${king} is in check`;
    return `Checkmate: ${attacked}, and no move gets it out of check.`;
  }
  const known: Record<string, string> = {
    stalemate: 'Stalemate: the side to move has no legal move but is not in check, so the game is drawn.',
    'fifty-move rule': 'Fifty moves by each side without a capture or a pawn move: the game is drawn.',
    'threefold repetition': 'The same position came up three times: the game is drawn.',
    'insufficient material': 'Neither side has the pieces left to give checkmate: the game is drawn.',
    'draw agreed': 'The players agreed to a draw.',
    aborted: 'The game was aborted: it ends with no result.',
    resignation: loser ? `${loser} resigned.` : 'A player resigned.',
    'king captured': loser ? `${loser}’s king was captured.` : 'A king was captured.',
  };
  const explained = known[reason.toLowerCase()];
  if (explained) return explained;
  return reason ? `${reason.replace(/^./, c => c.toUpperCase())}.`.replace(/\.\.$/, '.') : null;
}

function outcomeReasonLine(view: View): HTMLElement | null {
  const reason = outcomeReason(view);
  return reason ? h('div.outcome-reason', {}, reason) : null;
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
    outcomeReasonLine(view),
    view.outcome ? null : h('div.turn', {}, turnText(view)),
    view.prompt && !view.outcome ? h('div.prompt', {}, withCardFaces(view.prompt)) : null,
    view.check && !view.outcome ? h('div.check-note', {}, 'Check!') : null,
  );
}

/** An action's text for a picker's option: its label or canonical text, card codes as faces ("Predict: knight (8♥)"). */
export function actionLabel(action: ActionInfo): string {
  const words = action.label ?? action.text;
  return cardCodesIn(words).reduce((text, code) => text.replace(code, cardFace(code).text), words);
}

/**
 * An action's button content: its label (or text) with each card it names
 * drawn as a card face; a card the action carries (`card`) that the words
 * do not name is drawn after them.
 */
export function actionNodes(action: ActionInfo): (Node | string)[] {
  const words = action.label ?? action.text;
  const nodes = withCardFaces(words);
  if (action.card && !cardCodesIn(words).includes(action.card)) nodes.push(' ', cardChip(action.card));
  return nodes;
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
export function renderActions(
  view: View,
  act: (a: ActionInfo) => void,
  disabled: boolean,
  open: OpenQuestion = { action: null },
): HTMLElement | null {
  const buttons = view.actions.filter(a => !(isKey(a.from) && isKey(a.to)));
  if (!buttons.length) return null;
  const section = h('section.actions', {}, h('h3', {}, 'Actions'));
  // An action the game says changes things for good (its `confirm`) says what it means and asks first.
  const ask = (a: ActionInfo, focus = true) =>
    askFirst(section, { action: a.text, question: a.confirm ?? '', yes: actionLabel(a), no: 'No, go back' }, open, () => act(a), disabled, focus);
  const button = (a: ActionInfo) =>
    h(
      'button.action',
      { type: 'button', 'data-action': a.text, disabled, onclick: () => (a.confirm ? ask(a) : act(a)) },
      h('span.action-words', {}, actionNodes(a)),
    );
  section.append(
    ...groupActions(buttons).map(([word, group]) =>
      group.length > MAX_BUTTONS ? actionPicker(word, group, act, disabled) : h('div.buttons', {}, group.map(button)),
    ),
  );
  const asked = buttons.find(a => a.confirm && a.text === open.action);
  if (asked) ask(asked, false);
  return section;
}

/**
 * Which "are you sure?" question is open: the text of the action it asks
 * about, or null. The page keeps it across redraws, so that a move or a
 * chat line arriving while a player reads "Resign this game?" does not
 * take the question away from under their finger.
 */
export interface OpenQuestion {
  action: string | null;
}

/** What an "are you sure?" box says: the question, and the words of its two buttons. */
interface Question {
  action: string;
  question: string;
  yes: string;
  no: string;
}

/**
 * In `section`, the question and a choice to go on or not; nothing is
 * sent until "Yes". `open` remembers it until either button is pressed.
 * `focus` moves the keyboard to "Yes" (when a click opened it, not when a
 * redraw brings it back).
 */
function askFirst(
  section: HTMLElement,
  ask: Question,
  open: OpenQuestion,
  onYes: () => void,
  disabled: boolean,
  focus: boolean,
): void {
  const yes = h(
    'button.danger',
    {
      type: 'button',
      'data-confirm': ask.action,
      disabled,
      onclick: () => {
        open.action = null;
        onYes();
      },
    },
    `Yes, ${ask.yes.replace(/^./, c => c.toLowerCase())}`,
  );
  const close = () => {
    open.action = null;
    box.remove();
  };
  const no = h('button.secondary', { type: 'button', 'data-cancel': ask.action, onclick: close }, ask.no);
  const box = h('div.confirm', { role: 'alertdialog' }, h('p', {}, ask.question), h('div.buttons', {}, yes, no));
  section.querySelector('.confirm')?.remove();
  section.append(box);
  open.action = ask.action;
  if (focus) yes.focus();
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

function cardSpan(card: string, onclick?: () => void): HTMLElement {
  const face = cardFace(card);
  return h(
    onclick ? 'button.card.playable' : 'span.card',
    {
      class: face.red ? 'red' : 'black',
      'data-card': card,
      // The piece the card stands for, drawn under the face by the style sheet.
      'data-piece': cardPiece(card),
      onclick,
      type: onclick ? 'button' : undefined,
    },
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
  return [h('span.card.back.pile', { title: `${plural(count, 'card')} face down` }, '🂠', h('span.count', {}, String(count)))];
}

/** The view's tables, each drawn as its `drawn_as` says (web/src/tables.ts). */
export function renderTables(view: View): HTMLElement | null {
  const tables = view.tables ?? [];
  if (!tables.length) return null;
  return h('section.tables', {}, tables.map(drawTable));
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

/**
 * The move list. With `jump`, each line that says where it stands among the
 * actions (`at`) is a button that shows the board after it; the line at
 * `current` (the position looked back at) is marked.
 */
export function renderLog(view: View, jump?: (at: number) => void, current?: number): HTMLElement {
  const rows = logRows(view);
  const entry = (e: LogEntry) => {
    const at = e.at;
    if (!jump || at === undefined) return h('span.entry', { 'data-seat': e.seat ?? '' }, withCardFaces(e.text));
    return h(
      'button.entry.jump',
      {
        type: 'button',
        'data-seat': e.seat ?? '',
        'data-at': at,
        'aria-current': current === at ? 'step' : null,
        title: 'Show the board after this',
        onclick: () => jump(at),
      },
      withCardFaces(e.text),
    );
  };
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
      notes.map(n => h('li', {}, withCardFaces(n))),
    ),
  );
}

/** "1 move", "2 moves", "0 moves": a count with its noun, singular only for one. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** How long ago, in words: "just now", "1 minute ago", "3 hours ago", "2 days ago". */
export function ago(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 45) return 'just now';
  const units: [number, string][] = [
    [60 * 60 * 24 * 365, 'year'],
    [60 * 60 * 24 * 30, 'month'],
    [60 * 60 * 24 * 7, 'week'],
    [60 * 60 * 24, 'day'],
    [60 * 60, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (s >= size) return `${plural(Math.floor(s / size), unit)} ago`;
  }
  return `${plural(1, 'minute')} ago`;
}

/**
 * What happened since the viewer's previous look: the log entries after
 * `upTo` (the log's length when the viewer last saw it). The news stays
 * until the log grows again, so a redraw does not wipe it.
 */
export interface News {
  entries: LogEntry[];
  upTo: number;
}

/**
 * The news after a view with `log` arrives. Without an earlier look
 * (`previous` undefined) the newest entry is the news; a shorter log (a
 * game replaced) starts afresh.
 */
export function nextNews(previous: News | undefined, log: LogEntry[]): News {
  if (!previous) return { entries: log.slice(-1), upTo: log.length };
  if (log.length > previous.upTo) return { entries: log.slice(previous.upTo), upTo: log.length };
  if (log.length < previous.upTo) return { entries: [], upTo: log.length };
  return previous;
}

/** At most this many entries in the news line; older ones are counted. */
export const NEWS_MAX = 4;

/** One entry of the news in words: "Black: Nf6", "You: e4", or the text alone when it names its seat itself ("White resigns."). */
export function newsLine(view: View, entry: LogEntry): string {
  if (entry.seat === undefined) return entry.text;
  const me = viewerSeat(view);
  const name = seatName(view, entry.seat);
  if (entry.text.startsWith(`${name} `)) return entry.text; // "White resigns.", "Black guessed wrong"
  return `${entry.seat === me ? 'You' : name}: ${entry.text}`;
}

/** The news line: what just happened, in words (and how many earlier entries there were). */
export function renderNews(view: View, news: News | undefined): HTMLElement | null {
  const entries = news?.entries ?? [];
  if (!entries.length) return null;
  const shown = entries.slice(-NEWS_MAX);
  const earlier = entries.length - shown.length;
  return h(
    'div.news',
    { role: 'status', 'aria-live': 'polite' },
    h('span.news-label', {}, 'Latest:'),
    earlier ? h('span.news-earlier', {}, `${plural(earlier, 'earlier entry', 'earlier entries')} in the move list,`) : null,
    shown.map(e => h('span.news-item', { 'data-seat': e.seat ?? '' }, withCardFaces(newsLine(view, e)))),
  );
}

/**
 * The server's reason for refusing an action, with the action named by its
 * label rather than its raw text where it has one (`illegal action "assign
 * KR QK": ...` -> `illegal action "King as rook, ...": ...`).
 */
export function refusalText(message: string, action: ActionInfo): string {
  if (!action.label || action.label === action.text || !message.includes(action.text)) return message;
  return message.split(action.text).join(action.label);
}

/** The button text of a table action ("offer draw" -> "Offer a draw"). */
export function sessionLabel(action: string): string {
  const labels: Record<string, string> = {
    resign: 'Resign',
    'offer draw': 'Offer a draw',
    'accept draw': 'Accept the draw',
    'decline draw': 'Decline the draw',
    abort: 'Abort the game',
  };
  return labels[action] ?? action.replace(/^./, c => c.toUpperCase());
}

/** Table actions that end the game for good, so they ask first. */
const CONFIRM: Record<string, string> = {
  resign: 'Resign this game? Your side loses.',
  abort: 'Abort this game? It ends with no winner.',
};

/** The open draw offer in words, for the side that made it and for the side that must answer. */
export function drawOfferText(view: View): string | null {
  if (view.draw_offer === undefined || view.outcome) return null;
  const me = viewerSeat(view);
  const answers = view.session_actions ?? [];
  if (me === view.draw_offer) return 'You offered a draw: waiting for the answer.';
  const who = seatName(view, view.draw_offer);
  if (answers.includes('accept draw')) return `${who} offers a draw. Accept or decline?`;
  return `${who} offers a draw.`;
}

/**
 * The table actions (resign, draw offers, abort) as buttons; resign and
 * abort ask "are you sure?" in place before they are sent.
 */
export function renderSessionActions(
  view: View,
  send: (action: string) => void,
  disabled: boolean,
  open: OpenQuestion = { action: null },
): HTMLElement | null {
  const actions = view.outcome ? [] : (view.session_actions ?? []);
  const offer = drawOfferText(view);
  if (!actions.length && !offer) return null;
  const section = h('section.session', { 'data-draw-offer': view.draw_offer ?? '', class: offer ? 'has-offer' : '' });
  const buttons = h('div.buttons');
  const ask = (action: string, focus = true) =>
    askFirst(
      section,
      { action, question: CONFIRM[action], yes: sessionLabel(action), no: 'No, keep playing' },
      open,
      () => send(action),
      disabled,
      focus,
    );
  for (const action of actions) {
    const draw = action === 'accept draw' || action === 'decline draw';
    buttons.append(
      h(
        draw && action === 'accept draw' ? 'button.session-action.accept' : 'button.session-action',
        { type: 'button', 'data-session': action, disabled, onclick: () => (CONFIRM[action] ? ask(action) : send(action)) },
        sessionLabel(action),
      ),
    );
  }
  section.append(offer ? h('p.draw-offer', { role: 'status' }, offer) : '', actions.length ? buttons : '');
  const asked = actions.find(action => CONFIRM[action] && action === open.action);
  if (asked) ask(asked, false);
  return section;
}
