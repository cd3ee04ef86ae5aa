// What the game page mounts around the board (game.ts calls it in a few
// marked places): the bar under the board (stepping back through the
// moves, flipping the board, turning it for each player on a shared
// device), the setup pickers drawn as pictures instead of long lists (an
// assignment of captures, a placement of numbered pieces), and a button
// for each named group of actions chosen over the board. Which actions go
// where, each says itself (its `pick`), not its text.

import type { Color } from '@lichess-org/chessground/types';
import type { Board } from './board.ts';
import { isRuledOut, seatColor, viewerSeat } from './boardmodel.ts';
import { h } from './dom.ts';
import { History, type Versioned, moveNumber, moveStops } from './history.ts';
import { AssignmentPicker, assignActions } from './pickers/assignment.ts';
import { PlacementPicker, placeActions } from './pickers/placement.ts';
import type { ActionInfo, LogEntry, Seat, View } from './types.ts';

/** What the player chose about the board for one game, kept in localStorage. */
export interface BoardPrefs {
  /** Turned upside down from where it would face. */
  flipped: boolean;
  /** On a shared device: face the player whose turn it is (the default), or stay put. */
  turnEach: boolean;
}

const PREFS = 'chesskit:board:';

export function loadPrefs(storage: Pick<Storage, 'getItem'>, id: string): BoardPrefs {
  try {
    const data = JSON.parse(storage.getItem(PREFS + id) ?? '{}');
    return { flipped: data.flipped === true, turnEach: data.turnEach !== false };
  } catch {
    return { flipped: false, turnEach: true };
  }
}

function savePrefs(storage: Pick<Storage, 'setItem'>, id: string, prefs: BoardPrefs): void {
  try {
    storage.setItem(PREFS + id, JSON.stringify(prefs));
  } catch {
    // Private mode: the choice lasts until reload.
  }
}

const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');

/**
 * Which way the board faces: the viewer's side (the seat shown now), or on
 * a shared device with turning off, the first local seat's side; then
 * upside down if the player flipped it.
 */
export function facing(viewerSide: Color, fixedSide: Color | undefined, prefs: BoardPrefs): Color {
  const base = !prefs.turnEach && fixedSide ? fixedSide : viewerSide;
  return prefs.flipped ? opposite(base) : base;
}

/** The step buttons' drawings (system fonts may lack ⏮ and ⏭). */
const icon = (path: string) => `<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="${path}" fill="currentColor"/></svg>`;
const NAV_ICONS = {
  first: icon('M3 3h2v10H3zM13 3v10L6 8z'),
  back: icon('M11 3v10L4 8z'),
  forward: icon('M5 3v10l7-5z'),
  last: icon('M11 3h2v10h-2zM3 3v10l7-5z'),
};

/** A named group of actions behind one button (an action's `pick` of kind `group`). */
interface ActionGroup {
  name: string;
  caption: string;
  actions: ActionInfo[];
}

/** The view's actions offered behind a button of their group, by group, in the order the game lists them. */
export function actionGroups(actions: ActionInfo[]): ActionGroup[] {
  const groups = new Map<string, ActionGroup>();
  for (const action of actions) {
    const pick = action.pick;
    if (pick?.kind !== 'group') continue;
    const group = groups.get(pick.name) ?? { name: pick.name, caption: pick.caption, actions: [] };
    group.actions.push(action);
    groups.set(pick.name, group);
  }
  return [...groups.values()];
}

export interface ExtrasOptions {
  id: string;
  board: Board;
  boardEl: HTMLElement;
  boardCol: HTMLElement;
  /** The seats played on this device. */
  local: Seat[];
  /** The token of the seat shown now (undefined for a spectator). */
  token: () => string | undefined;
  /** Draw the page again (the board too). */
  redraw: () => void;
}

export class BoardExtras {
  private prefs: BoardPrefs;
  private readonly history: History;
  private readonly bar = h('div.board-bar');
  private readonly note = h('div.history-note', { role: 'status', hidden: true });
  private readonly assignment: AssignmentPicker;
  private readonly placement: PlacementPicker;
  private fixedSide?: Color;
  private act: (a: ActionInfo) => void = () => undefined;
  /** The live view's log: what the counter counts as moves. */
  private log: LogEntry[] = [];

  constructor(private readonly o: ExtrasOptions) {
    this.prefs = loadPrefs(localStorage, o.id);
    this.history = new History(o.id, o.token, () => o.redraw());
    o.board.orientationFor = model => facing(model.orientation, o.local.length > 1 ? this.fixedSide : undefined, this.prefs);
    this.assignment = new AssignmentPicker(a => this.act(a));
    this.placement = new PlacementPicker(o.board, o.boardEl, a => this.act(a));
    o.boardCol.append(this.bar);
    document.addEventListener('keydown', e => this.key(e));
  }

  /** What the page draws: the live view, or a past one while the player looks back. */
  shown(current: Versioned): Versioned {
    const view = current.view;
    if (this.o.local.length > 1 && this.fixedSide === undefined) this.fixedSide = seatColor(view, this.o.local[0]);
    const shown = this.history.shown(current, viewerSeat(view));
    this.log = view.log;
    this.history.stops = moveStops(view.log);
    this.drawBar();
    return shown;
  }

  /** The action count on screen while looking back (undefined: the game as it is). */
  get lookingAt(): number | undefined {
    return this.history.at ?? this.history.loading;
  }

  /** Show the view after `at` actions (a line of the move list clicked); the live count goes back to the game. */
  goTo(at: number): void {
    void this.history.go(at);
  }

  /**
   * The view without the actions drawn here instead (for the page's list of
   * action buttons), and without choices that cannot be right (guesses
   * already ruled out: the board's picker shows them greyed).
   */
  unclaimed(view: View): View {
    const claimed = new Set([...this.claimed(view), ...view.actions.filter(isRuledOut)].map(a => a.text));
    return claimed.size ? { ...view, actions: view.actions.filter(a => !claimed.has(a.text)) } : view;
  }

  /** The actions played on the board (and listed nowhere else). */
  private claimed(view: View): ActionInfo[] {
    const assigns = assignActions(view.actions);
    const places = placeActions(view.actions);
    return [
      ...(assigns.length > 1 ? assigns : []),
      ...(places.length > 1 ? places : []),
      ...actionGroups(view.actions).flatMap(g => g.actions),
      ...boardOnlyActions(view.actions),
    ];
  }

  /** The pictures and buttons for this view's actions, or null when it has none of them. */
  panel(view: View, act: (a: ActionInfo) => void, disabled: boolean): HTMLElement | null {
    this.act = act;
    const seat = viewerSeat(view);
    const mine = seatColor(view, seat);
    const sections: HTMLElement[] = [];

    const assigns = assignActions(view.actions);
    if (assigns.length > 1) {
      const enemySeat = view.seats.findIndex((s, i) => i !== seat && s.colour === opposite(mine));
      const enemyName = view.seats[enemySeat]?.name ?? 'your opponent';
      sections.push(this.assignment.render(assigns, opposite(mine), enemyName, disabled));
    }

    const places = placeActions(view.actions);
    if (places.length > 1) sections.push(this.placement.render(view, places, mine, disabled));
    else this.placement.hide();

    const groups = actionGroups(view.actions);
    if (groups.length) {
      // One button per group, classed by its name (`bonus-button`) for tests, and `asks-first` when it does.
      const button = (g: ActionGroup) =>
        h(
          'button.action.group-button',
          {
            type: 'button',
            class: [`${g.name}-button`, g.actions.some(a => a.confirm) ? 'asks-first' : ''].filter(Boolean).join(' '),
            'data-group': g.name,
            disabled,
            onclick: () => this.o.board.offer(g.actions),
          },
          g.caption,
        );
      sections.push(h('section.turn-extras', {}, groups.map(button)));
    }
    return sections.length ? h('div.board-extras', {}, sections) : null;
  }

  private setPrefs(prefs: BoardPrefs): void {
    this.prefs = prefs;
    savePrefs(localStorage, this.o.id, prefs);
    this.o.board.reorient();
    this.drawBar();
  }

  private key(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    if (target?.isContentEditable) return;
    const step = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'first', End: 'last' } as const;
    const s = step[e.key as keyof typeof step];
    if (!s || this.o.boardCol.hidden || this.o.boardCol.closest('[hidden]')) return;
    // Home and End scroll the page too: they step only from the board's own buttons.
    if ((s === 'first' || s === 'last') && !this.o.boardCol.contains(document.activeElement)) return;
    e.preventDefault();
    this.history.step(s);
  }

  private drawBar(): void {
    const hist = this.history;
    const live = hist.live;
    const at = hist.at ?? live;
    const busy = hist.loading !== undefined;
    const nav = (step: 'first' | 'back' | 'forward' | 'last', label: string, off: boolean) => {
      const button = h('button.nav', { type: 'button', 'data-step': step, 'aria-label': label, title: label, disabled: off, onclick: () => hist.step(step) });
      button.innerHTML = NAV_ICONS[step]; // constant drawings, no outside text
      return button;
    };
    const hotSeat = this.o.local.length > 1;
    // Redrawing replaces the buttons: keep the keyboard's place on the one it was on.
    const focused = (this.bar.contains(document.activeElement) && (document.activeElement as HTMLElement).dataset.step) || undefined;
    this.bar.replaceChildren(
      h(
        'div.history-nav',
        { role: 'group', 'aria-label': 'Step through the moves' },
        nav('first', 'First position (Home)', at === 0),
        nav('back', 'Back one move (←)', at === 0),
        nav('forward', 'Forward one move (→)', at >= live),
        nav('last', 'Back to the game (End)', at >= live && !busy),
        hist.viewing || busy ? null : h('span.history-pos', {}, `Move ${moveNumber(this.log, live)}`),
      ),
      this.note,
      h(
        'div.view-controls',
        {},
        h(
          'button.flip',
          {
            type: 'button',
            'aria-pressed': this.prefs.flipped ? 'true' : 'false',
            title: 'Turn the board around (remembered for this game)',
            'aria-label': 'Flip the board',
            onclick: () => this.setPrefs({ ...this.prefs, flipped: !this.prefs.flipped }),
          },
          '⇅ Flip',
        ),
        hotSeat
          ? h(
              'label.turn-each',
              {},
              h('input', {
                type: 'checkbox',
                id: 'turn-each',
                checked: this.prefs.turnEach,
                onchange: (e: Event) => this.setPrefs({ ...this.prefs, turnEach: (e.target as HTMLInputElement).checked }),
              }),
              ' Turn the board for each player',
            )
          : null,
      ),
    );
    if (focused) {
      const again = this.bar.querySelector<HTMLButtonElement>(`button[data-step="${focused}"]`);
      (again && !again.disabled ? again : this.bar.querySelector<HTMLButtonElement>('button.nav:not(:disabled)'))?.focus();
    }
    this.o.boardCol.classList.toggle('looking-back', hist.viewing);
    this.note.hidden = !hist.viewing && !hist.error && !busy;
    this.note.replaceChildren(
      ...[
        busy ? h('span.history-text', {}, `Loading move ${moveNumber(this.log, hist.loading!)}…`) : null,
        hist.viewing && !busy
          ? h(
              'span.history-text',
              { title: 'Looking back: nothing can be played here' },
              `Viewing move ${moveNumber(this.log, at)} of ${moveNumber(this.log, live)}`,
            )
          : null,
        hist.viewing ? h('button.history-back', { type: 'button', onclick: () => hist.leave() }, 'Back to the game') : null,
        hist.error ? h('span.history-error', { role: 'alert' }, hist.error) : null,
      ].filter((x): x is HTMLElement => !!x),
    );
  }
}

/**
 * Square actions too many for buttons, each just its word and its square
 * (`circle e4` on every square of Split-Brain's grid): the board rings the
 * squares and a click plays them, so they are not also a list.
 */
export function boardOnlyActions(actions: ActionInfo[]): ActionInfo[] {
  const bySquare = actions.filter(a => a.square && !a.from && !a.to && a.text.endsWith(` ${a.square}`));
  const words = new Map<string, ActionInfo[]>();
  for (const a of bySquare) {
    const word = a.text.split(' ')[0];
    if (a.text === `${word} ${a.square}`) words.set(word, [...(words.get(word) ?? []), a]);
  }
  return [...words.values()].filter(group => group.length > 16).flat();
}
