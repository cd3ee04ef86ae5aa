// A secret assignment of captures as a picture (Masquerade Chess's): the
// opponent's five piece types on one side, the five capture moves on the
// other. The player pairs them (click a piece then a capture, either order,
// or drag a capture onto a piece), sees the whole assignment, and confirms;
// the client then sends the offered action whose `pick` (of kind
// `assignment`: piece letters and the capture letters they use, in the same
// order) makes that assignment. Its text is never read.

import { h } from '../dom.ts';
import type { ActionInfo } from '../types.ts';

/** The piece types above pawns, in the order the game writes them. */
export const TYPES = ['K', 'Q', 'R', 'B', 'N'] as const;
export type TypeLetter = (typeof TYPES)[number];

export const TYPE_NAMES: Record<TypeLetter, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

/** Piece letter -> the capture letter it uses; a piece not paired yet is absent. */
export type Pairs = Partial<Record<TypeLetter, TypeLetter>>;

const isType = (c: string): c is TypeLetter => (TYPES as readonly string[]).includes(c);

/**
 * The pairs an action's `pick` assigns (each of the five piece types once,
 * each capture once), or null if it is no assignment this picker can draw.
 */
export function pairsOf(action: ActionInfo): Pairs | null {
  const pick = action.pick;
  if (pick?.kind !== 'assignment') return null;
  const pieces = [...pick.pieces.toUpperCase()];
  const captures = [...pick.captures.toUpperCase()];
  if (pieces.length !== TYPES.length || captures.length !== TYPES.length) return null;
  const pairs: Pairs = {};
  for (const [i, p] of pieces.entries()) {
    const c = captures[i];
    if (!isType(p) || !isType(c) || pairs[p]) return null;
    pairs[p] = c;
  }
  return complete(pairs) ? pairs : null;
}

/** The assignment actions among `actions`: the ones this picker stands in for. */
export function assignActions(actions: ActionInfo[]): ActionInfo[] {
  return actions.filter(a => pairsOf(a) !== null);
}

/** Whether every piece type has a capture, each capture used once. */
export function complete(pairs: Pairs): boolean {
  const used = TYPES.map(t => pairs[t]).filter(Boolean);
  return used.length === 5 && new Set(used).size === 5;
}

/** The offered action that makes exactly this assignment, if any. */
export function matchingAction(actions: ActionInfo[], pairs: Pairs): ActionInfo | undefined {
  if (!complete(pairs)) return undefined;
  return actions.find(a => {
    const offered = pairsOf(a);
    return offered !== null && TYPES.every(t => offered[t] === pairs[t]);
  });
}

/**
 * Give `piece` the capture `capture`. A capture belongs to one piece only:
 * the piece that had it takes over `piece`'s old capture (a swap), or
 * none.
 */
export function pair(pairs: Pairs, piece: TypeLetter, capture: TypeLetter): Pairs {
  const next: Pairs = { ...pairs };
  const holder = TYPES.find(t => t !== piece && next[t] === capture);
  if (holder) {
    if (next[piece]) next[holder] = next[piece];
    else delete next[holder];
  }
  next[piece] = capture;
  return next;
}

/** The assignment in words, as the game says it: "king captures like a rook, queen like a king, ...". */
export function pairsInWords(pairs: Pairs): string {
  return TYPES.filter(t => pairs[t])
    .map((t, i) => `${TYPE_NAMES[t]}${i === 0 ? ' captures' : ''} like a ${TYPE_NAMES[pairs[t]!]}`)
    .join(', ');
}

const ROLE: Record<TypeLetter, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

/** A chessground piece picture outside the board. */
export function pieceIcon(color: string, letter: TypeLetter): HTMLElement {
  return h('span.cg-wrap.piece-icon', { 'aria-hidden': 'true' }, h('piece', { class: `${color} ${ROLE[letter]}` }));
}

/** A capture move's picture: the piece whose capture it is, with a capture mark (board.css). */
function captureIcon(color: string, letter: TypeLetter): HTMLElement {
  const icon = pieceIcon(color, letter);
  icon.classList.add('capture-icon');
  return icon;
}

/**
 * The picker. It keeps the player's pairs across redraws of the panel (the
 * page redraws on every message), and starts over only when the offered
 * assignments change.
 */
export class AssignmentPicker {
  private pairs: Pairs = {};
  private piece?: TypeLetter;
  private capture?: TypeLetter;
  private actions: ActionInfo[] = [];
  private enemy = 'black';
  private enemyName = 'your opponent';
  private disabled = false;
  private key = '';
  readonly el = h('section.board-picker.assignment-picker', { 'aria-label': 'Assign the captures' });

  constructor(private readonly act: (a: ActionInfo) => void) {}

  /** Draw for these offered assignments; `enemy` is the opponent's colour, `enemyName` their seat's name. */
  render(actions: ActionInfo[], enemy: string, enemyName: string, disabled: boolean): HTMLElement {
    const key = actions.map(a => a.text).join('|');
    if (key !== this.key) {
      this.key = key;
      this.pairs = {};
      this.piece = this.capture = undefined;
    }
    this.actions = actions;
    this.enemy = enemy;
    this.enemyName = enemyName;
    this.disabled = disabled;
    this.draw();
    return this.el;
  }

  private set(pairs: Pairs): void {
    this.pairs = pairs;
    this.piece = this.capture = undefined;
    this.draw();
  }

  private clickPiece(t: TypeLetter): void {
    if (this.capture) return this.set(pair(this.pairs, t, this.capture));
    this.piece = this.piece === t ? undefined : t;
    this.draw();
  }

  private clickCapture(c: TypeLetter): void {
    if (this.piece) return this.set(pair(this.pairs, this.piece, c));
    this.capture = this.capture === c ? undefined : c;
    this.draw();
  }

  private draw(): void {
    const holderOf = (c: TypeLetter) => TYPES.find(t => this.pairs[t] === c);
    const rows = TYPES.map(t => {
      const c = this.pairs[t];
      return h(
        'button.mq-piece',
        {
          type: 'button',
          'data-piece': t,
          'aria-pressed': this.piece === t ? 'true' : 'false',
          class: [this.piece === t ? 'selected' : '', c ? 'paired' : ''].filter(Boolean).join(' '),
          disabled: this.disabled,
          onclick: () => this.clickPiece(t),
          ondragover: (e: Event) => e.preventDefault(),
          ondrop: (e: Event) => {
            e.preventDefault();
            const dropped = (e as DragEvent).dataTransfer?.getData('text/plain') ?? '';
            if (isType(dropped)) this.set(pair(this.pairs, t, dropped));
          },
        },
        pieceIcon(this.enemy, t),
        h('span.mq-name', {}, `${capitalise(TYPE_NAMES[t])}`),
        h('span.mq-arrow', { 'aria-hidden': 'true' }, '→'),
        c
          ? h('span.mq-slot.filled', { 'data-capture': c }, captureIcon(this.enemy, c), h('span', {}, `like a ${TYPE_NAMES[c]}`))
          : h('span.mq-slot.empty', {}, this.piece === t ? 'now choose a capture →' : 'no capture yet'),
      );
    });
    const captures = TYPES.map(c => {
      const holder = holderOf(c);
      return h(
        'button.mq-capture',
        {
          type: 'button',
          'data-capture': c,
          draggable: this.disabled ? undefined : 'true',
          'aria-pressed': this.capture === c ? 'true' : 'false',
          class: [this.capture === c ? 'selected' : '', holder ? 'used' : ''].filter(Boolean).join(' '),
          disabled: this.disabled,
          title: holder ? `Given to the ${TYPE_NAMES[holder]}` : `Not given yet`,
          onclick: () => this.clickCapture(c),
          ondragstart: (e: Event) => (e as DragEvent).dataTransfer?.setData('text/plain', c),
        },
        captureIcon(this.enemy, c),
        h(
          'span.mq-cap-text',
          {},
          h('span.mq-cap-name', {}, `like a ${TYPE_NAMES[c]}`),
          h('span.mq-cap-used', {}, holder ? `→ ${TYPE_NAMES[holder]}` : 'not given'),
        ),
      );
    });
    const chosen = matchingAction(this.actions, this.pairs);
    const missing = TYPES.filter(t => !this.pairs[t]).map(t => TYPE_NAMES[t]);
    const summary = complete(this.pairs)
      ? chosen
        ? `${capitalise(this.enemyName)}’s ${pairsInWords(this.pairs)}.`
        : 'This assignment is not offered.'
      : `Still to pair: ${missing.join(', ')}.`;
    const orthodox: Pairs = { K: 'K', Q: 'Q', R: 'R', B: 'B', N: 'N' };
    this.el.replaceChildren(
      h('h3', {}, `Assign ${this.enemyName}’s captures`),
      h(
        'p.picker-help',
        {},
        `Pair each of ${this.enemyName}’s pieces with the capture it will use: click a piece, then a capture (or drag a capture onto a piece). Each capture goes to one piece.`,
      ),
      h(
        'div.mq-grid',
        {},
        h('div.mq-pieces', { role: 'group', 'aria-label': `${this.enemyName}’s pieces` }, h('div.mq-head', {}, `${this.enemyName}’s pieces`), rows),
        h('div.mq-captures', { role: 'group', 'aria-label': 'Capture moves' }, h('div.mq-head', {}, 'Capture moves'), captures),
      ),
      h('p.mq-summary', { 'aria-live': 'polite' }, summary),
      h(
        'div.picker-row',
        {},
        h(
          'button.action.primary.confirm.assign-confirm',
          {
            type: 'button',
            disabled: this.disabled || !chosen,
            onclick: () => chosen && this.act(chosen),
          },
          'Confirm the assignment',
        ),
        h('button.action.quiet', { type: 'button', disabled: this.disabled, onclick: () => this.set(orthodox) }, 'Each as itself'),
        h(
          'button.action.quiet.assign-random',
          {
            type: 'button',
            disabled: this.disabled || !this.actions.length,
            onclick: () => {
              const pick = this.actions[Math.floor(Math.random() * this.actions.length)];
              const pairs = pick && pairsOf(pick);
              if (pairs) this.set(pairs);
            },
          },
          'At random',
        ),
        h('button.action.quiet', { type: 'button', disabled: this.disabled, onclick: () => this.set({}) }, 'Clear'),
      ),
    );
  }
}

const capitalise = (s: string) => s.replace(/^./, c => c.toUpperCase());
