// A secret placement on the board (Cloak and Dagger's): the player's eight
// numbered checkers stand on their back rank; the player puts a piece's
// identity on each (choose a piece below the board, then a checker; or
// drag the piece onto the checker), sees the whole row as pieces, and
// confirms. The client then sends the offered action whose `pick` (of kind
// `placement`) names the identities of checkers 1 to 8 in order
// (`RNBQKBNR`); the game offers only the 960 placements its rules allow:
// the king between the rooks, the bishops on squares of both colours.

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Color, Key, Piece, Role } from '@lichess-org/chessground/types';
import type { Board, Overlay } from '../board.ts';
import { isKey, pieceLabelShapes } from '../boardmodel.ts';
import { h } from '../dom.ts';
import type { ActionInfo, View } from '../types.ts';
import { TYPE_NAMES, type TypeLetter, pieceIcon } from './assignment.ts';

/** The pieces a player's checkers stand for. */
export const POOL: TypeLetter[] = ['K', 'Q', 'R', 'R', 'B', 'B', 'N', 'N'];
const KINDS: TypeLetter[] = ['K', 'Q', 'R', 'B', 'N'];
const ROLE: Record<TypeLetter, Role> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

/** Checkers 1 to 8: the identity put on each so far. */
export type Slots = (TypeLetter | null)[];

export const emptySlots = (): Slots => Array<TypeLetter | null>(8).fill(null);

/** The eight identities an action's `pick` places (`RNBQKBNR`), or null if it is no placement of eight. */
export function slotsOf(action: ActionInfo): Slots | null {
  const pick = action.pick;
  if (pick?.kind !== 'placement') return null;
  const m = /^[KQRBN]{8}$/i.exec(pick.roles);
  return m ? ([...m[0].toUpperCase()] as TypeLetter[]) : null;
}

/** The placement actions among `actions`: the ones this picker stands in for. */
export function placeActions(actions: ActionInfo[]): ActionInfo[] {
  return actions.filter(a => slotsOf(a) !== null);
}

/** How many of each piece are still to put on a checker. */
export function remaining(slots: Slots): Record<TypeLetter, number> {
  const left = { K: 0, Q: 0, R: 0, B: 0, N: 0 } as Record<TypeLetter, number>;
  for (const p of POOL) left[p]++;
  for (const s of slots) if (s) left[s]--;
  return left;
}

/** Whether a back-rank square is dark: a1 is dark, a8 light. */
export function isDark(key: string): boolean {
  return ('abcdefgh'.indexOf(key[0]) + Number(key[1])) % 2 === 1;
}

/**
 * What still stands between these slots and a placement the rules allow,
 * in words (empty when none). `squares` are the checkers' squares, for the
 * bishops' colours.
 */
export function problems(slots: Slots, squares: string[]): string[] {
  const out: string[] = [];
  const left = remaining(slots);
  const missing = KINDS.filter(k => left[k] > 0).map(k => (left[k] > 1 ? `${left[k]} ${TYPE_NAMES[k]}s` : `the ${TYPE_NAMES[k]}`));
  if (missing.length) out.push(`Still to place: ${missing.join(', ')}.`);
  const bishops = slots.flatMap((s, i) => (s === 'B' ? [isDark(squares[i])] : []));
  if (bishops.length === 2 && bishops[0] === bishops[1]) {
    out.push(`Both bishops stand on ${bishops[0] ? 'dark' : 'light'} squares: put one on a ${bishops[0] ? 'light' : 'dark'} square.`);
  }
  const king = slots.indexOf('K');
  const rooks = slots.flatMap((s, i) => (s === 'R' ? [i] : []));
  if (king >= 0 && rooks.length === 2 && !(rooks[0] < king && king < rooks[1])) out.push('The king must stand between the two rooks.');
  return out;
}

/** The offered placement with exactly these identities, if any. */
export function matchingPlacement(actions: ActionInfo[], slots: Slots): ActionInfo | undefined {
  if (slots.some(s => !s)) return undefined;
  const letters = slots.join('');
  return actions.find(a => slotsOf(a)?.join('') === letters);
}

/** The squares of the viewer's checkers 1 to 8: where the view labels them, else files a to h of the back rank. */
export function checkerSquares(view: View, colour: Color): Key[] {
  const squares = view.board?.squares ?? [];
  return Array.from({ length: 8 }, (_, i) => {
    const found = squares.find(s => s.piece?.colour === colour && s.piece.label === String(i + 1));
    const fallback = `${'abcdefgh'[i]}${colour === 'white' ? 1 : 8}` as Key;
    return found && isKey(found.square) ? found.square : fallback;
  });
}

export class PlacementPicker {
  private slots: Slots = emptySlots();
  private kind?: TypeLetter;
  private slot?: number;
  private actions: ActionInfo[] = [];
  private squares: Key[] = [];
  private colour: Color = 'white';
  private disabled = false;
  private key = '';
  private shown = false;
  readonly el = h('section.board-picker.placement-picker', { 'aria-label': 'Place your checkers' });

  constructor(
    private readonly board: Board,
    boardEl: HTMLElement,
    private readonly act: (a: ActionInfo) => void,
  ) {
    // A piece dragged from the list below the board onto one of the checkers.
    boardEl.addEventListener('dragover', e => {
      if (this.shown && !this.disabled) e.preventDefault();
    });
    boardEl.addEventListener('drop', e => {
      if (!this.shown || this.disabled) return;
      e.preventDefault();
      const kind = e.dataTransfer?.getData('text/plain') ?? '';
      const square = this.board.squareAt(e.clientX, e.clientY);
      const i = square ? this.squares.indexOf(square) : -1;
      if (i >= 0 && (KINDS as string[]).includes(kind)) this.put(i, kind as TypeLetter);
    });
  }

  render(view: View, actions: ActionInfo[], colour: Color, disabled: boolean): HTMLElement {
    const key = actions.map(a => a.text).join('|');
    if (key !== this.key) {
      this.key = key;
      this.slots = emptySlots();
      this.kind = this.slot = undefined;
    }
    this.actions = actions;
    this.colour = colour;
    this.squares = checkerSquares(view, colour);
    this.disabled = disabled;
    this.shown = true;
    this.draw();
    return this.el;
  }

  /** Take the picker off the board (the placement was sent, or is no longer offered). */
  hide(): void {
    if (!this.shown) return;
    this.shown = false;
    this.key = '';
    this.board.setOverlay(undefined);
  }

  /** Put `kind` on checker `i`, if one of that kind is left (the checker's old identity goes back to the list). */
  private put(i: number, kind: TypeLetter): void {
    const next = [...this.slots];
    next[i] = null;
    if (remaining(next)[kind] > 0) next[i] = kind;
    this.slots = next;
    this.kind = this.slot = undefined;
    this.draw();
  }

  private clickSquare(key: Key): void {
    if (this.disabled) return;
    const i = this.squares.indexOf(key);
    if (i < 0) return;
    if (this.kind) return this.put(i, this.kind);
    if (this.slot === undefined) this.slot = i;
    else if (this.slot === i) {
      // A second click on the same checker takes its identity off.
      this.slots = this.slots.map((s, j) => (j === i ? null : s));
      this.slot = undefined;
    } else {
      // Two checkers in turn: they swap identities.
      const next = [...this.slots];
      [next[this.slot], next[i]] = [next[i], next[this.slot]];
      this.slots = next;
      this.slot = undefined;
    }
    this.draw();
  }

  private clickKind(kind: TypeLetter): void {
    if (this.slot !== undefined) return this.put(this.slot, kind);
    this.kind = this.kind === kind ? undefined : kind;
    this.draw();
  }

  private overlay(): Overlay {
    const pieces = new Map<Key, Piece>();
    const shapes: DrawShape[] = [];
    const classes = new Map<Key, string>();
    this.squares.forEach((square, i) => {
      classes.set(square, this.slot === i ? 'slot slot-selected' : 'slot');
      const kind = this.slots[i];
      if (!kind) return;
      pieces.set(square, { role: ROLE[kind], color: this.colour });
      shapes.push(...pieceLabelShapes(square, { colour: this.colour, role: ROLE[kind], label: String(i + 1) }));
    });
    return { pieces, shapes, classes, onSquare: key => this.clickSquare(key) };
  }

  private draw(): void {
    this.board.setOverlay(this.overlay());
    const left = remaining(this.slots);
    const chosen = matchingPlacement(this.actions, this.slots);
    const issues = problems(this.slots, this.squares);
    const status = chosen
      ? `Checkers 1 to 8: ${this.slots.map(s => TYPE_NAMES[s!]).join(', ')}.`
      : issues.length
        ? issues.join(' ')
        : 'This placement is not offered.';
    const kinds = KINDS.map(kind =>
      h(
        'button.pl-kind',
        {
          type: 'button',
          'data-kind': kind,
          draggable: this.disabled || !left[kind] ? undefined : 'true',
          class: this.kind === kind ? 'selected' : undefined,
          'aria-pressed': this.kind === kind ? 'true' : 'false',
          disabled: this.disabled || !left[kind],
          onclick: () => this.clickKind(kind),
          ondragstart: (e: Event) => (e as DragEvent).dataTransfer?.setData('text/plain', kind),
        },
        pieceIcon(this.colour, kind),
        h('span.pl-name', {}, TYPE_NAMES[kind]),
        h('span.pl-left', {}, left[kind] ? `${left[kind]} left` : 'placed'),
      ),
    );
    const hint =
      this.kind !== undefined
        ? `Now click the checker on the board that is the ${TYPE_NAMES[this.kind]}.`
        : this.slot !== undefined
          ? `Checker ${this.slot + 1} chosen: click a piece below to put on it, another checker to swap them, or the same checker to clear it.`
          : this.slots.every(Boolean)
            ? 'All placed. To change: click two checkers to swap them, or one checker twice to clear it.'
            : 'Choose a piece, then click one of your numbered checkers on the board (or drag the piece onto it).';
    this.el.replaceChildren(
      h('h3', {}, 'Place your checkers'),
      h('p.picker-help', {}, 'Your opponent will not see this. The king must stand between the rooks, and the bishops on squares of both colours.'),
      h('div.pl-kinds', { role: 'group', 'aria-label': 'Pieces to place' }, kinds),
      h('p.pl-hint', {}, hint),
      h('p.pl-status', { class: chosen ? 'ok' : 'todo', 'aria-live': 'polite' }, status),
      h(
        'div.picker-row',
        {},
        h(
          'button.action.primary.confirm',
          { type: 'button', id: 'place-confirm', disabled: this.disabled || !chosen, onclick: () => chosen && this.act(chosen) },
          'Confirm the placement',
        ),
        h(
          'button.action.quiet',
          {
            type: 'button',
            id: 'place-random',
            disabled: this.disabled || !this.actions.length,
            onclick: () => {
              const pick = this.actions[Math.floor(Math.random() * this.actions.length)];
              const slots = pick && slotsOf(pick);
              if (slots) {
                this.slots = slots;
                this.kind = this.slot = undefined;
                this.draw();
              }
            },
          },
          'At random',
        ),
        h(
          'button.action.quiet',
          {
            type: 'button',
            disabled: this.disabled,
            onclick: () => {
              this.slots = emptySlots();
              this.kind = this.slot = undefined;
              this.draw();
            },
          },
          'Clear',
        ),
      ),
    );
  }
}
