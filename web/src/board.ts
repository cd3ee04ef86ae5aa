// The board on the page: chessground drawing a BoardModel, turning drags,
// clicks and picker choices into the view's own actions.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { type BoardModel, piecesDiff, moveKey } from './boardmodel.ts';
import { h } from './dom.ts';
import type { ActionInfo } from './types.ts';
import { commonPrefix } from './view.ts';

const PROMOTION_ROLES: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', k: 'king', p: 'pawn' };

export class Board {
  private readonly cg: Api;
  private model?: BoardModel;
  private picker?: HTMLElement;
  private selectedBefore?: Key;

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
      autoCastle: true,
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 180 },
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
  }

  /** Draw `model`, replacing whatever the board showed (an unsent move, an open picker). */
  update(model: BoardModel): void {
    const first = this.model === undefined;
    this.model = model;
    this.closePicker();
    this.cg.selectSquare(null);
    this.cg.set({
      orientation: model.orientation,
      turnColor: model.turnColor,
      lastMove: model.lastMove,
      check: false,
      movable: { color: model.movableColor, dests: model.dests },
      highlight: { custom: model.classes },
      drawable: { autoShapes: model.shapes },
      animation: { enabled: !first },
    });
    this.cg.setPieces(piecesDiff(this.cg.state.pieces, model.pieces));
    if (first) this.cg.set({ animation: { enabled: true } });
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
    if (choices.length === 1) this.onAction(choices[0]);
    else if (choices.length > 1) this.choose(choices, key);
  }

  /** Several actions share one gesture (a promotion, say): let the player pick one. */
  private choose(choices: ActionInfo[], near: Key): void {
    this.closePicker();
    const color = this.cg.state.pieces.get(near)?.color ?? this.model?.turnColor ?? 'white';
    const cancel = () => {
      this.closePicker();
      if (this.model) this.update(this.model);
    };
    const labels = choices.map(action => {
      const role = action.promotion ? PROMOTION_ROLES[action.promotion.toLowerCase()] : undefined;
      return action.label ?? (role ? `Promote to ${role}` : action.text);
    });
    // Long labels that say the same thing first ("Guess: the checker on a8 is a knight"): say it once, above.
    const prefix = commonPrefix(labels);
    const buttons = choices.map((action, i) => {
      const role = action.promotion ? PROMOTION_ROLES[action.promotion.toLowerCase()] : undefined;
      const label = labels[i];
      return h(
        role ? 'button.pick' : 'button.pick.text',
        {
          type: 'button',
          title: label,
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
      h('div.picker-box', {}, prefix ? h('div.pick-title', {}, prefix.trim()) : null, buttons, h('button.pick-cancel', { type: 'button', onclick: cancel }, 'Cancel')),
    );
    // Inside the container: chessground sizes it to whole squares, a little smaller than the wrap.
    (this.el.querySelector('cg-container') ?? this.el).append(this.picker);
  }

  private closePicker(): void {
    this.picker?.remove();
    this.picker = undefined;
  }

  /** Recompute sizes after the layout changed (the board is sized by CSS). */
  redraw(): void {
    this.cg.redrawAll();
  }

  destroy(): void {
    this.cg.destroy();
  }
}
