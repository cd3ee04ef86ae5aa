// The board on the page: chessground drawing a BoardModel, turning drags,
// clicks and picker choices into the view's own actions.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Color, Key, Piece } from '@lichess-org/chessground/types';
import { type BoardModel, isKey, isRuledOut, piecesDiff, moveKey } from './boardmodel.ts';
import { h } from './dom.ts';
import type { ActionInfo } from './types.ts';
import { commonPrefix } from './view.ts';

const PROMOTION_ROLES: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', k: 'king', p: 'pawn' };

/**
 * What a setup picker lays over the board while the player arranges their
 * pieces before sending anything (Cloak and Dagger's placement): pieces
 * shown in place of the view's, their drawings, and squares whose clicks go
 * to the picker instead of the game.
 */
export interface Overlay {
  pieces: Map<Key, Piece>;
  /** Drawings for the overlaid squares (the view's drawings there are dropped). */
  shapes: DrawShape[];
  /** Extra CSS classes by square (`slot`, `slot-selected`). */
  classes: Map<Key, string>;
  onSquare(key: Key): void;
}

/**
 * Whether pieces may slide to their squares: not when the player's system asks
 * for reduced motion (prefers-reduced-motion), which some need to follow a game
 * without discomfort; they then jump. Asked at every update, so a change of the
 * setting takes effect at the next move without reloading (docs/web.md).
 */
function motionWanted(): boolean {
  return typeof matchMedia !== 'function' || !matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Board {
  private readonly cg: Api;
  private model?: BoardModel;
  private picker?: HTMLElement;
  private selectedBefore?: Key;
  private overlay?: Overlay;
  /** Stop following the layout (see `follow`). */
  private unfollow: () => void = () => undefined;
  /** Which way the board faces for a model: the viewer's side unless the player turned it (boardextras.ts). */
  orientationFor: (model: BoardModel) => Color = model => model.orientation;

  /** `onAction` receives every action the player chose on the board. */
  constructor(
    private readonly el: HTMLElement,
    private readonly onAction: (action: ActionInfo) => void,
  ) {
    this.cg = Chessground(el, {
      // Start empty: the first model is drawn without animation, so the
      // orthodox start never flashes up (or fades out) before a game's own board.
      fen: '8/8/8/8/8/8/8/8',
      coordinates: true,
      // On the left edge, inside the board (board.css): chessground then marks each coordinate light or dark by its square.
      ranksPosition: 'left',
      autoCastle: true,
      highlight: { lastMove: true, check: true },
      animation: { enabled: motionWanted(), duration: 180 },
      movable: {
        free: false,
        showDests: true,
        rookCastle: true,
        events: { after: (orig, dest) => this.afterMove(orig, dest) },
      },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      events: { select: key => this.onSelect(key) },
      drawable: { enabled: true },
    });
    // Chessground reports a selection only after acting on it; note what was
    // selected before the press, to tell a move's second click from a click
    // on a square of its own.
    const before = () => (this.selectedBefore = this.cg.state.selected);
    el.addEventListener('mousedown', before, { capture: true });
    el.addEventListener('touchstart', before, { capture: true, passive: true });
    // A setup picker's squares take their presses at once, before chessground
    // (whose select event comes a moment later, and could land after the
    // player's next choice in the picker).
    const overlayPress = (e: MouseEvent | TouchEvent) => {
      const point = 'touches' in e ? e.touches[0] : e;
      const key = point && this.squareAt(point.clientX, point.clientY);
      if (!this.overlay || !key || !this.overlay.classes.has(key)) return;
      if ((e.target as Element | null)?.closest?.('.picker')) return;
      if ('button' in e && e.button !== 0) return;
      e.stopPropagation();
      e.preventDefault(); // on a touch screen: no mouse events after it
      this.overlay.onSquare(key);
    };
    el.addEventListener('mousedown', overlayPress, { capture: true });
    el.addEventListener('touchstart', overlayPress, { capture: true, passive: false });
  }

  /** Draw `model`, replacing whatever the board showed (an unsent move, an open picker). */
  update(model: BoardModel): void {
    const first = this.model === undefined;
    this.model = model;
    this.closePicker();
    this.cg.selectSquare(null);
    const overlay = this.overlay;
    const pieces = new Map(model.pieces);
    let shapes = model.shapes;
    const classes = new Map(model.classes);
    if (overlay) {
      for (const [key, piece] of overlay.pieces) pieces.set(key, piece);
      shapes = [...shapes.filter(s => !overlay.pieces.has(s.orig)), ...overlay.shapes];
      for (const [key, name] of overlay.classes) classes.set(key, [classes.get(key), name].filter(Boolean).join(' '));
    }
    this.cg.set({
      orientation: this.orientationFor(model),
      turnColor: model.turnColor,
      lastMove: model.lastMove,
      check: false,
      movable: { color: model.movableColor, dests: model.dests },
      highlight: { custom: classes },
      drawable: { autoShapes: shapes },
      animation: { enabled: !first && motionWanted() },
    });
    this.cg.setPieces(piecesDiff(this.cg.state.pieces, pieces));
    if (first) this.cg.set({ animation: { enabled: motionWanted() } });
    this.faced(model);
  }

  /**
   * Note which way the board faces; when it is not the viewer's side (flipped,
   * or not turned for this player), the page's player bars trade places
   * (board.css), so each side's name stays next to its pieces.
   */
  private faced(model: BoardModel): void {
    const orientation = this.cg.state.orientation;
    this.el.dataset.orientation = orientation;
    this.el.closest('.board-col')?.classList.toggle('bars-swapped', orientation !== model.orientation);
  }

  /** Lay a setup picker's pieces over the board (undefined takes it away), and redraw. */
  setOverlay(overlay: Overlay | undefined): void {
    this.overlay = overlay;
    if (this.model) this.update(this.model);
  }

  /** Face the board as `orientationFor` now says (after the player flipped it). */
  reorient(): void {
    if (!this.model) return;
    this.cg.set({ orientation: this.orientationFor(this.model) });
    this.faced(this.model);
  }

  /** The square under a point of the page (a drop from a picker), if any. */
  squareAt(x: number, y: number): Key | undefined {
    const rect = this.el.querySelector('cg-board')?.getBoundingClientRect();
    if (!rect || x < rect.left || y < rect.top || x >= rect.right || y >= rect.bottom) return undefined;
    const col = Math.floor(((x - rect.left) * 8) / rect.width);
    const row = Math.floor(((y - rect.top) * 8) / rect.height);
    const white = this.cg.state.orientation === 'white';
    const key = `${'abcdefgh'[white ? col : 7 - col]}${white ? 8 - row : row + 1}`;
    return isKey(key) ? key : undefined;
  }

  /**
   * Let the player pick one of these actions over the board (a group's, from
   * its button); when the game asks first for all of them (their `confirm`),
   * the picker says what they mean.
   */
  offer(choices: ActionInfo[]): void {
    const warnings = new Set(choices.map(a => a.confirm));
    const [warning] = warnings;
    if (choices.length) this.choose(choices, undefined, warnings.size === 1 ? warning : undefined);
  }

  /** Ask before an action the game marks `confirm` (it cannot be taken back), then send it. */
  confirm(action: ActionInfo): void {
    const near = isKey(action.square) ? action.square : undefined;
    this.choose([action], near, action.confirm);
  }

  /** Freeze the board while an action is on its way. */
  freeze(): void {
    this.cg.set({ movable: { color: undefined, dests: new Map() } });
  }

  private afterMove(orig: Key, dest: Key): void {
    const choices = this.model?.moves.get(moveKey(orig, dest)) ?? [];
    if (choices.length === 1) this.onAction(choices[0]);
    else if (choices.length > 1) this.choose(choices, dest);
    else if (this.model) this.update(this.model);
  }

  /** A click on a square that has its own action (bury here, place a checker here). */
  private onSelect(key: Key): void {
    const model = this.model;
    const from = this.selectedBefore;
    this.selectedBefore = undefined;
    if (!model || model.dests.has(key) || (from && model.dests.get(from)?.includes(key))) return;
    const choices = model.squareActions.get(key) ?? [];
    if (choices.length) this.cg.selectSquare(null);
    if (choices.length === 1 && choices[0].confirm) this.confirm(choices[0]);
    else if (choices.length === 1) this.onAction(choices[0]);
    else if (choices.length > 1) this.choose(choices, key);
  }

  /** Several actions share one gesture (a promotion, say): let the player pick one. */
  private choose(choices: ActionInfo[], near: Key | undefined, warning?: string): void {
    this.closePicker();
    // Choices that cannot be right (a guess already ruled out) go last, greyed and disabled.
    choices = [...choices.filter(a => !isRuledOut(a)), ...choices.filter(isRuledOut)];
    const color = (near && this.cg.state.pieces.get(near)?.color) ?? this.model?.turnColor ?? 'white';
    const cancel = () => {
      this.closePicker();
      if (this.model) this.update(this.model);
    };
    const labels = choices.map(action => {
      const role = action.promotion ? PROMOTION_ROLES[action.promotion.toLowerCase()] : undefined;
      const squares = action.from && action.to ? `Move ${action.from}-${action.to}` : action.text;
      return action.label ?? (role ? `Promote to ${role}` : squares);
    });
    // Long labels that say the same thing first ("Guess: the checker on a8 is a knight"): say it once, above.
    const prefix = commonPrefix(labels);
    const buttons = choices.map((action, i) => {
      const role = action.promotion ? PROMOTION_ROLES[action.promotion.toLowerCase()] : undefined;
      const label = labels[i];
      const ruledOut = isRuledOut(action);
      return h(
        role ? 'button.pick' : 'button.pick.text',
        {
          type: 'button',
          title: label,
          class: ruledOut ? 'ruled-out' : undefined,
          disabled: ruledOut,
          'data-action': action.text,
          onclick: (e: Event) => {
            e.stopPropagation();
            this.closePicker();
            this.onAction(action);
          },
        },
        role ? h('piece', { class: `${color} ${role}` }) : h('span', {}, label.slice(prefix.length)),
      );
    });
    this.picker = h(
      'div.picker',
      { onclick: cancel, role: 'dialog', 'aria-label': 'Choose' },
      h(
        'div.picker-box',
        { onclick: (e: Event) => e.stopPropagation() },
        prefix ? h('div.pick-title', {}, prefix.trim()) : null,
        warning ? h('div.pick-warning', {}, warning) : null,
        buttons,
        h('button.pick-cancel', { type: 'button', onclick: cancel }, 'Cancel'),
      ),
    );
    // Inside the container: chessground sizes it to whole squares, a little smaller than the wrap.
    (this.el.querySelector('cg-container') ?? this.el).append(this.picker);
  }

  private closePicker(): void {
    this.picker?.remove();
    this.picker = undefined;
  }

  /**
   * Keep chessground's idea of where the board is in step with the page: it
   * remembers the board's place on screen and forgets it only on a scroll or
   * when the board itself changes size. A seat bar that grows to two lines
   * above the board after it is drawn (four seats), or a callout that grows on
   * a phone, moves the board without resizing it, and every click would land
   * on the square where the board used to be (a rank low). Any change of size
   * of these containers (each holding the board or something above it) makes
   * chessground measure the board again at its next press.
   */
  follow(...containers: Element[]): void {
    if (typeof ResizeObserver === 'undefined') return; // old browsers: chessground's own scroll and resize watch only
    const observer = new ResizeObserver(() => this.cg.state.dom.bounds.clear());
    for (const container of containers) observer.observe(container);
    this.unfollow = () => observer.disconnect();
  }

  /** Recompute sizes after the layout changed (the board is sized by CSS). */
  redraw(): void {
    this.cg.redrawAll();
  }

  destroy(): void {
    this.unfollow();
    this.cg.destroy();
  }
}
