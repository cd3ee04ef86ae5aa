// The game page `/play/<id>`: the board and panels of the view of the seat
// this device must show, live over WebSockets, with a privacy screen between
// people sharing the device in hidden-information games.

import {
  ApiError,
  GameSocket,
  fetchAnalysis,
  fetchView,
  fillSeat,
  gameInfo,
  gameRecord,
  listVariants,
  postAction,
  rematchSeat,
} from './api.ts';
import { Board } from './board.ts';
import { BoardExtras } from './boardextras.ts'; // webboard: the bar under the board, setup pictures, history
import { boardModel, seatColor, viewerSeat } from './boardmodel.ts';
import { ChatBox } from './chat.ts';
import { renderClocks } from './clocks.ts';
import { copyText, h } from './dom.ts';
import { SEAT_CHOICES, computerLabel, header, isLocalHost, newGamePath } from './lobby.ts';
import { learnSection } from './learn.ts';
import { rulesDetails } from './rules.ts';
import { handOver, seatToShow } from './seats.ts';
import { Sound, soundEvents, soundSwitch } from './sound.ts';
import { type StoredGame, loadGame, localSeats, saveGame } from './store.ts';
import type { ActionInfo, GameInfo, Seat, VariantInfo, View } from './types.ts';
import { applyChange } from './types.ts';
import {
  type News,
  type OpenQuestion,
  nextNews,
  refusalText,
  renderActions,
  renderLog,
  renderNews,
  renderNotes,
  renderSessionActions,
  renderStatus,
  renderTables,
  renderZones,
  seatName,
  sessionLabel,
} from './view.ts';

/** The key of the spectator's view among the views by seat. */
const SPECTATOR = -1;

/** How often the page asks whether invited friends have joined, while some have not. */
const JOIN_POLL_MS = 3000;

/** How the player left the move list: scrolled `top` down, at its end or not, with `entries` lines. */
interface LogPlace {
  top: number;
  atEnd: boolean;
  entries: number;
}

interface Versioned {
  version: number;
  view: View;
}

export async function gamePage(root: HTMLElement, id: string, urlToken: string | null): Promise<void> {
  const main = h('main.game', {}, h('p.loading', {}, 'Loading the game…'));
  root.replaceChildren(header(), main);
  const store = loadGame(localStorage, id);
  let warning: string | undefined;
  if (urlToken) warning = await adoptToken(id, urlToken, store);

  let info: GameInfo;
  let variants: VariantInfo[];
  try {
    [info, variants] = await Promise.all([gameInfo(id), listVariants()]);
  } catch (e) {
    const message = e instanceof ApiError && e.status === 404 ? 'There is no such game.' : (e as Error).message;
    main.replaceChildren(h('p.error', { role: 'alert' }, message), h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
    return;
  }
  if (!store.title) {
    store.title = info.title;
    if (localSeats(store).length) saveGame(localStorage, id, store);
  }
  new GamePage(root, id, info, variants.find(v => v.name === info.variant), store, warning);
}

/**
 * Keep the token of an invite link (or of the page the lobby opened) and
 * take it out of the address bar, so that copying the address shares a
 * spectator's link, not the seat. Returns a warning if the token is refused.
 */
async function adoptToken(id: string, token: string, store: StoredGame): Promise<string | undefined> {
  let warning: string | undefined;
  try {
    const response = await fetchView(id, token);
    if (response.seat !== null) {
      store.tokens[String(response.seat)] = token;
      store.invites = store.invites.filter(i => i.seat !== response.seat || !i.path.includes(token));
      saveGame(localStorage, id, store);
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) warning = 'This link’s seat token is not valid for this game: you are watching.';
    else if (!(e instanceof ApiError && e.status === 404)) warning = (e as Error).message;
  }
  history.replaceState(null, '', `/play/${encodeURIComponent(id)}`);
  return warning;
}

class GamePage {
  private readonly local: Seat[];
  private readonly views = new Map<Seat, Versioned>();
  private readonly sockets: GameSocket[] = [];
  /** The index in `sockets` of each seat's feed. */
  private readonly feeds = new Map<Seat, number>();
  private readonly offline = new Set<number>();
  /** The seat whose view is on screen (past any privacy screen). */
  private shown: Seat | null = null;
  private drawn = '';
  private pending = false;
  /** The "are you sure?" question open on the page, kept across redraws. */
  private question: OpenQuestion = { action: null };
  /** The computer level chosen for each seat in the waiting room, kept across redraws (the page redraws while it waits). */
  private fillLevels = new Map<Seat, string>();
  /**
   * While an action of this page is on its way: the views on screen when it was sent, which the
   * page keeps showing until the action's answer comes. The socket often tells the change (the
   * action's own, or another seat's) before that answer arrives; drawn at once, it would show a
   * position to play on a board still frozen for the action, which ignores the player's clicks.
   */
  private sentFrom?: Map<Seat, Versioned>;
  private error?: string;
  /** Whether the error is "cannot reach the server", which a reconnected socket clears. */
  private errorOffline = false;
  /** What happened since each local seat's (or the spectator's) previous look. */
  private readonly news = new Map<Seat, News>();
  /** The player on screen asked to pass the device: cover it now. */
  private passing = false;
  /** The end of the game: "New game" or "Rematch" under way, or its error. */
  private ending?: string;
  /** The analysis of the finished deal: asked for and on its way, its words, or why it failed. */
  private analysis?: { state: 'thinking' } | { state: 'done'; words: string } | { state: 'failed'; error: string };
  private joinPoll?: number;
  /** Kept across redraws, so it stays open and keeps its document. */
  private readonly rulesPanel: HTMLElement | null;
  /** The rules in a few lines and the book's examples to try (learn.ts); kept, like the rules. */
  private readonly learnPanel: HTMLElement | null;

  private readonly main: HTMLElement;
  /** Beside the board (above it on a phone): what just happened, whose turn, the prompt, the table actions. */
  private readonly callout: HTMLElement;
  private readonly boardCol: HTMLElement;
  private readonly boardEl: HTMLElement;
  private readonly topBar: HTMLElement;
  private readonly bottomBar: HTMLElement;
  private readonly panel: HTMLElement;
  private readonly privacy: HTMLElement;
  private readonly board: Board;
  private readonly extras: BoardExtras; // webboard
  private readonly chat = new ChatBox(action => this.act({ text: action, label: 'Say' }));
  /** What the other side did, in short tones, while the header's switch is on. */
  private readonly sound = new Sound(localStorage);

  constructor(
    root: HTMLElement,
    private readonly id: string,
    private info: GameInfo,
    private readonly variant: VariantInfo | undefined,
    private readonly store: StoredGame,
    private readonly warning?: string,
  ) {
    this.local = localSeats(store);
    document.title = `${info.title} · chesskit`;
    this.boardEl = h('div.board', { id: 'board' });
    this.topBar = h('div.player.top');
    this.bottomBar = h('div.player.bottom');
    this.boardCol = h('section.board-col', {}, this.topBar, h('div.board-wrap', {}, this.boardEl), this.bottomBar);
    this.panel = h('aside.panel');
    this.callout = h('div.callout');
    this.main = h('main.game', { 'data-game': id }, this.callout, this.boardCol, this.panel);
    this.privacy = h('div.privacy', { hidden: true, role: 'dialog' });
    root.replaceChildren(header(h('span.game-title', {}, info.title), soundSwitch(this.sound)), this.main, this.privacy);
    this.board = new Board(this.boardEl, action => this.act(action));
    // The seat bar, the callout (above the board on a phone) and the panels change size as the game goes.
    this.board.follow(this.main, this.callout, this.boardCol, this.topBar);
    // webboard: history, flipping, setup pictures (boardextras.ts)
    this.extras = new BoardExtras({
      id,
      board: this.board,
      boardEl: this.boardEl,
      boardCol: this.boardCol,
      local: this.local,
      token: () => this.token(this.shown),
      redraw: () => this.render(),
    });
    this.rulesPanel = variant ? rulesDetails(variant) : null;
    this.learnPanel = variant ? learnSection(variant) : null;
    this.connect();
    this.render();
    this.watchJoins();
  }

  /** Whether the server says `seat`'s player has come (undefined: it does not say). */
  private joined(seat: Seat): boolean | undefined {
    return this.info.seats[seat]?.joined;
  }

  /**
   * The seats of other people who have not come yet, as far as the server tells: friends invited
   * from this browser or from another one (at a table of four, every page shows every seat).
   */
  private waitingSeats(): Seat[] {
    return this.info.seats.filter(s => !this.local.includes(s.seat) && s.joined === false).map(s => s.seat);
  }

  /**
   * Whether this page waits to hear of a rematch: the game is over (not aborted), someone plays here,
   * and no seat has started one yet (another seat's page may start it at any moment).
   */
  private awaitingRematch(): boolean {
    return this.info.over && this.local.length > 0 && this.info.outcome?.reason !== 'aborted' && !this.info.rematch;
  }

  /**
   * Ask the server again now and then while the table may change without a move: someone invited has
   * not come (so their seat stops saying "invited friend"), or a rematch may be started by another seat.
   */
  private watchJoins(): void {
    window.clearTimeout(this.joinPoll);
    const waiting = this.waitingSeats().length > 0 && !this.info.over;
    if (!waiting && !this.awaitingRematch()) return;
    this.joinPoll = window.setTimeout(() => {
      gameInfo(this.id)
        .then(info => {
          this.info = info;
          this.render();
        })
        .catch(() => undefined) // offline: the next round tries again
        .finally(() => this.watchJoins());
    }, JOIN_POLL_MS);
  }

  /** One live feed per seat played here, or the spectator's. */
  private connect(): void {
    const feeds: [Seat, string | undefined][] = this.local.length
      ? this.local.map(s => [s, this.store.tokens[String(s)]])
      : [[SPECTATOR, undefined]];
    feeds.forEach(([seat, token], i) => {
      this.refresh(seat, token);
      this.sockets[i] = new GameSocket(
        this.id,
        token,
        (version, view, from) => this.accept(seat, version, view, from),
        online => {
          if (online) {
            const wasOffline = this.offline.delete(i);
            if (this.errorOffline) this.setError(undefined);
            if (wasOffline) this.refresh(seat, token);
          } else this.offline.add(i);
          this.render();
        },
        // A reconnecting socket starts with the change since the view held.
        () => this.views.get(seat)?.version,
      );
      this.feeds.set(seat, i);
    });
  }

  /**
   * Ask for a feed's view again: whole on a first load, else the change
   * since the version held (after a reconnection: whatever was missed).
   */
  private refresh(seat: Seat, token: string | undefined): void {
    fetchView(this.id, token, this.views.get(seat)?.version)
      .then(r => {
        if (r.seats) this.info = { ...this.info, seats: r.seats };
        this.accept(seat, r.version, r.view, r.from);
      })
      .catch(e => this.fail(e));
  }

  private setError(e: unknown): void {
    this.error = e === undefined ? undefined : e instanceof Error ? e.message : String(e);
    this.errorOffline = e instanceof ApiError && e.status === 0;
  }

  /**
   * Take a view of `version` for a seat's feed: whole, or the change `from`
   * a version. A change from a version the page does not hold (a gap: a
   * message missed, or a view of another version taken meanwhile) is not
   * applied; the page asks to catch up from the version it holds.
   */
  private accept(seat: Seat, version: number, view: View, from?: number): void {
    const old = this.views.get(seat);
    if (old && old.version > version) return;
    if (from !== undefined) {
      if (old && old.version === version && from !== version) return; // already held
      if (!old || old.version !== from) {
        this.catchUp(seat, old?.version);
        return;
      }
      view = applyChange(old.view, view);
    }
    this.views.set(seat, { version, view });
    if (old && seat === this.soundFeed) this.sound.play(soundEvents(old.view, view, this.local));
    this.render();
  }

  /**
   * The one feed whose changes are sounded: every feed of a device that plays several seats
   * hears the same moves, and each should sound once.
   */
  private get soundFeed(): Seat {
    return this.local[0] ?? SPECTATOR;
  }

  /** Ask a feed's socket (or, if it is closed, the server) for the change since `version`. */
  private catchUp(seat: Seat, version: number | undefined): void {
    const feed = this.feeds.get(seat);
    if (feed !== undefined && this.sockets[feed]?.sync(version)) return;
    this.refresh(seat, this.token(seat));
  }

  private fail(e: unknown): void {
    this.setError(e);
    this.render();
  }

  private token(seat: Seat | null): string | undefined {
    return seat === null ? undefined : this.store.tokens[String(seat)];
  }

  /** Send an action for the seat on screen; resolves to whether the server took it. */
  private async act(action: ActionInfo): Promise<boolean> {
    const seat = this.shown;
    const token = this.token(seat);
    if (this.pending || seat === null || !token) return false;
    this.pending = true;
    this.sentFrom = new Map(this.views);
    this.setError(undefined);
    this.board.freeze();
    this.render();
    try {
      const response = await postAction(this.id, token, action.text, this.views.get(seat)?.version);
      this.accept(seat, response.version, response.view, response.from);
      return true;
    } catch (e) {
      const message =
        e instanceof ApiError && e.status === 0
          ? 'Cannot reach the server: that was not sent. Try again once the connection is back.'
          : e instanceof Error
            ? refusalText(e.message, action)
            : String(e);
      this.setError(e instanceof ApiError ? new ApiError(e.status, message) : e);
      return false;
    } finally {
      this.pending = false;
      this.sentFrom = undefined;
      this.drawn = ''; // redraw the board: undo a refused move
      this.render();
    }
  }

  private get hiddenInformation(): boolean {
    return this.variant?.hidden_information ?? false;
  }

  private render(): void {
    const views = this.sentFrom ?? this.views;
    const seatViews = new Map([...views].filter(([s]) => s !== SPECTATOR).map(([s, v]) => [s, v.view]));
    if (this.local.some(s => !seatViews.has(s))) {
      // Choose whom to show only once every seat's view is in.
      this.panel.replaceChildren(this.messages(), h('p.loading', {}, 'Loading the game…'));
      return;
    }
    const next = this.local.length ? seatToShow(seatViews, this.local, this.shown) : null;
    const screen = this.local.length ? handOver(this.hiddenInformation, this.local, this.shown, next, this.passing) : 'show';
    if (screen === 'cover') {
      this.showPrivacy(next!);
      return;
    }
    this.privacy.hidden = true;
    this.main.hidden = false;
    // Handing over: the player who just acted still sees their own view, and what came of it.
    if (screen === 'show') this.shown = next;
    const current = views.get(this.shown ?? SPECTATOR);
    if (!current) {
      this.panel.replaceChildren(this.messages(), h('p.loading', {}, 'Loading the game…'));
      return;
    }
    this.draw(this.extras.shown(current), screen === 'hand-over' ? next : null, current.view); // webboard: a past view while looking back
  }

  /** A button to pass the device to `next`: the privacy screen covers the page when pressed. */
  private passButton(next: Seat): HTMLElement {
    const name = this.info.seats[next]?.name ?? `seat ${next + 1}`;
    return h(
      'div.pass',
      {},
      h(
        'button.primary.pass-device',
        {
          type: 'button',
          id: 'pass-device',
          onclick: () => {
            this.passing = true;
            this.render();
          },
        },
        `Pass to ${name}`,
      ),
      h('small', {}, `Then hand the device to ${name}: the screen covers your pieces first.`),
    );
  }

  private showPrivacy(next: Seat): void {
    const name = this.info.seats[next]?.name ?? `seat ${next + 1}`;
    this.main.hidden = true;
    this.privacy.hidden = false;
    this.drawn = '';
    this.privacy.replaceChildren(
      h(
        'button.privacy-box',
        {
          type: 'button',
          id: 'privacy-ready',
          onclick: () => {
            this.shown = next;
            this.passing = false;
            this.render();
          },
        },
        h('span.privacy-title', {}, `Pass the device to ${name}`),
        h('span.privacy-sub', {}, 'Tap when ready'),
      ),
    );
  }

  /** Draw `view` (the live one, or a past one while looking back); the move list is always the `live` view's. */
  private draw({ version, view }: Versioned, handOverTo: Seat | null, live: View): void {
    const seat = viewerSeat(view);
    const news = this.updateNews(seat ?? SPECTATOR, view);
    this.main.dataset.version = String(version);
    this.main.dataset.seat = seat === null ? 'spectator' : String(seat);
    this.main.dataset.over = view.outcome ? 'yes' : 'no';
    this.noteEnd(view);
    const myTurn = seat !== null && view.actions.length > 0;
    document.title = `${myTurn ? '● ' : ''}${this.info.title} · chesskit`;

    this.boardCol.hidden = !view.board;
    const key = `${seat}:${version}`;
    if (view.board && this.drawn !== key) {
      this.board.update(boardModel(view));
      this.drawn = key;
    }
    if (this.pending) this.board.freeze();
    this.drawPlayers(view, seat);

    const act = (a: ActionInfo) => this.act(a);
    const logBefore = this.logPlace();
    const answering = this.questionButtonFocused();
    const send = (text: string) => this.act({ text, label: sessionLabel(text) });
    this.callout.replaceChildren(
      ...[
        this.messages(),
        this.waitingRoom(),
        renderNews(view, news),
        renderStatus(view),
        renderClocks(view),
        handOverTo !== null ? this.passButton(handOverTo) : null,
        renderSessionActions(view, send, this.pending, this.question),
        this.endActions(view),
      ].filter((x): x is HTMLElement => !!x),
    );
    this.panel.replaceChildren(
      ...[
        this.learnPanel,
        this.extras.panel(view, act, this.pending), // webboard: setup pictures, bonus, uncloak
        renderActions(this.extras.unclaimed(view), act, this.pending, this.question),
        renderZones(view, act, this.pending),
        renderTables(view),
        renderNotes(view),
        renderLog(live, at => this.extras.goTo(at), this.extras.lookingAt),
        this.chat.update(view, this.pending),
        this.invites(view),
        this.rulesPanel,
        this.exports(view),
      ].filter((x): x is HTMLElement => !!x),
    );
    this.scrollLog(logBefore);
    this.keepQuestion(answering);
  }

  /** The open question's button that has the keyboard (`data-confirm` or `data-cancel`), if one has. */
  private questionButtonFocused(): string | null {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLElement) || !focused.closest('.confirm')) return null;
    return focused.hasAttribute('data-confirm') ? 'data-confirm' : focused.hasAttribute('data-cancel') ? 'data-cancel' : null;
  }

  /**
   * After a redraw: the question is forgotten if its action is gone (the
   * game ended, the turn passed), and the keyboard goes back to the button
   * it was on.
   */
  private keepQuestion(answering: string | null): void {
    const box = this.main.querySelector<HTMLElement>('.confirm');
    if (!box) {
      this.question.action = null;
      return;
    }
    if (answering) box.querySelector<HTMLElement>(`[${answering}]`)?.focus();
  }

  /** Where the move list on screen is scrolled, before a redraw replaces it; null before the first. */
  private logPlace(): LogPlace | null {
    const log = this.panel.querySelector<HTMLElement>('.log');
    if (!log) return null;
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 2;
    return { top: log.scrollTop, atEnd, entries: log.querySelectorAll('.entry').length };
  }

  /**
   * The move list shows the line looked back at; else the latest moves when there are new ones or it
   * showed the latest already; else it stays where the player scrolled it. A redraw with nothing new
   * (after the end the page asks every few seconds whether a rematch has started) must not throw a
   * player reading the first moves back to the last.
   */
  private scrollLog(before: LogPlace | null): void {
    const log = this.panel.querySelector<HTMLElement>('.log');
    if (!log) return;
    const current = log.querySelector<HTMLElement>('[aria-current]');
    const grown = !before || before.entries !== log.querySelectorAll('.entry').length;
    if (current) log.scrollTop = current.offsetTop - log.offsetTop - log.clientHeight / 2;
    else if (grown || before.atEnd) log.scrollTop = log.scrollHeight;
    else log.scrollTop = before.top;
  }

  /** The news for the viewer on screen: log entries since their previous look (kept per seat on this device). */
  private updateNews(seat: Seat, view: View): News {
    let previous = this.news.get(seat);
    const seen = this.store.seen?.[String(seat)];
    if (!previous && seat !== SPECTATOR && seen !== undefined) previous = { entries: [], upTo: seen };
    const news = nextNews(previous, view.log);
    this.news.set(seat, news);
    if (seat !== SPECTATOR && this.local.includes(seat) && seen !== news.upTo) {
      this.store.seen = { ...this.store.seen, [String(seat)]: news.upTo };
      saveGame(localStorage, this.id, this.store);
    }
    return news;
  }

  /** The game is over now: note it, and start listening for a rematch another seat may start. */
  private noteEnd(view: View): void {
    if (!view.outcome || this.info.over) return;
    this.info = { ...this.info, over: true, outcome: view.outcome };
    this.watchJoins();
  }

  /** Once the game is over: a rematch (or joining the one another seat started), a new game like this one, the lobby. */
  private endActions(view: View): HTMLElement | null {
    if (!view.outcome) return null;
    const busy = this.ending === 'busy';
    // An aborted game had no opponent to play again.
    const rematch = this.local.length > 0 && view.outcome.reason !== 'aborted';
    const started = rematch && this.info.rematch !== undefined;
    const swapped = this.info.seats.length === 2;
    const note = started
      ? `Your opponent started a rematch${swapped ? ' (colours swapped)' : ''}: join it to take your seat.`
      : `Rematch: the same players${swapped ? ', colours swapped' : ''}. Everyone at the table is offered their seat.`;
    return h(
      'section.end',
      { 'data-rematch': started ? 'started' : null },
      h(
        'div.buttons',
        {},
        rematch
          ? h('button.primary', { type: 'button', id: 'rematch', disabled: busy, onclick: () => void this.rematch() }, started ? 'Join the rematch' : 'Rematch')
          : null,
        h('button.secondary', { type: 'button', id: 'new-game', disabled: busy, onclick: () => void this.newGame() }, 'New game'),
        h('a.button.secondary', { href: '/', id: 'to-lobby' }, 'Back to the lobby'),
      ),
      rematch ? h('small.note', {}, note) : null,
      this.ending && !busy ? h('p.error', { role: 'alert' }, this.ending) : null,
      this.analysisSection(),
    );
  }

  /**
   * For a solitaire whose variant has an analysis: "Could this deal have been won?", and once asked the
   * solver's answer in its own words (the server searches once, within its own limit).
   */
  private analysisSection(): HTMLElement | null {
    if (!this.variant?.analysis || this.info.seats.length !== 1) return null;
    const state = this.analysis;
    const asking = state?.state === 'thinking';
    const button =
      state?.state === 'done'
        ? null
        : h('button.secondary', { type: 'button', id: 'analysis', disabled: asking, onclick: () => void this.analyse() }, 'Could this deal have been won?');
    let answer: HTMLElement | null = null;
    if (asking) answer = h('p.thinking', { role: 'status' }, 'Thinking… the solver is searching this deal.');
    else if (state?.state === 'done')
      answer = h('div', {}, h('small.note', {}, 'Could this deal have been won? The solver says:'), h('p.answer', { role: 'status' }, state.words));
    else if (state?.state === 'failed') answer = h('p.error', { role: 'alert' }, `The deal could not be analysed: ${state.error}`);
    return h('div.analysis', {}, button, answer);
  }

  private async analyse(): Promise<void> {
    this.analysis = { state: 'thinking' };
    this.render();
    try {
      const { words } = await fetchAnalysis(this.id);
      this.analysis = { state: 'done', words };
    } catch (e) {
      this.analysis = { state: 'failed', error: (e as Error).message };
    }
    this.render();
  }

  /** The options this game was created with: from its record, else as this browser kept them. */
  private async options(): Promise<Record<string, unknown>> {
    try {
      return (await gameRecord(this.id)).options ?? {};
    } catch {
      return this.store.options ?? {};
    }
  }

  /** The lobby's form for this variant, filled in with this game's options and seats. */
  private async newGame(): Promise<void> {
    this.ending = 'busy';
    this.render();
    const options = await this.options();
    location.assign(newGamePath(this.info, this.local, options));
  }

  /**
   * The same table again, colours swapped in a two-seat game: the server starts the rematch (or finds
   * the one another seat started) and gives each seat played here its own place and token in it; the
   * other seats' pages are offered theirs.
   */
  private async rematch(): Promise<void> {
    this.ending = 'busy';
    this.render();
    try {
      const options = await this.options();
      const stored: StoredGame = { tokens: {}, invites: [], title: this.info.title, options };
      let next = '';
      for (const seat of this.local) {
        const place = await rematchSeat(this.id, this.store.tokens[String(seat)]);
        stored.tokens[String(place.seat)] = place.token;
        next = place.id;
      }
      saveGame(localStorage, next, stored);
      location.assign(`/play/${encodeURIComponent(next)}`);
    } catch (e) {
      this.ending = `Cannot start the rematch: ${e instanceof Error ? e.message : String(e)}`;
      this.render();
    }
  }

  /** The bars above and below the board: who plays which seat, and whose turn it is. */
  private drawPlayers(view: View, seat: Seat | null): void {
    const bottomColour = seatColor(view, seat);
    const bottom = seat ?? view.seats.findIndex(s => (s.colour ?? 'white') === bottomColour);
    const others = view.seats.map((_, i) => i).filter(i => i !== bottom);
    const bar = (s: Seat) =>
      h(
        'span.seat',
        { 'data-seat': s, class: view.to_act.includes(s) && !view.outcome ? 'to-act' : '' },
        h('span.dot', { class: view.seats[s]?.colour ?? '' }),
        h('span.name', {}, seatName(view, s)),
        h('span.kind', {}, this.kindLabel(s)),
      );
    this.topBar.replaceChildren(...others.map(bar));
    this.bottomBar.replaceChildren(...(bottom >= 0 ? [bar(bottom)] : []));
  }

  private kindLabel(seat: Seat): string {
    if (this.local.includes(seat)) return this.local.length > 1 ? 'on this device' : 'you';
    const kind = this.info.seats[seat]?.kind ?? '';
    const computer = computerLabel(kind);
    if (computer) return computer;
    // A lobby game's player goes by the name they chose.
    const chosen = this.info.players?.[seat];
    if (chosen) return chosen;
    // A challenge's free seat waits for whoever takes it in the lobby, not for a friend.
    if (kind === 'open' && this.store.challenge) return this.joined(seat) ? 'player' : 'waiting for a player';
    if (kind === 'open') return this.joined(seat) ? 'friend' : 'invited friend';
    return kind === 'human' ? 'player' : kind;
  }

  private messages(): HTMLElement {
    return h(
      'div.messages',
      {},
      this.warning ? h('p.warning', {}, this.warning) : null,
      this.offline.size ? h('p.offline', { role: 'status' }, 'Connection lost — reconnecting…') : null,
      this.error ? h('p.error', { role: 'alert' }, this.error) : null,
      this.local.length === 0 ? h('p.spectating', {}, 'You are watching this game.') : null,
    );
  }

  /**
   * A challenge's creator waits here while its free seats are listed in the lobby (docs/web.md, "The
   * lobby"), and may let a computer of a chosen level play a seat nobody takes.
   */
  private waitingRoom(): HTMLElement | null {
    const token = this.local.length ? this.store.tokens[String(this.local[0])] : undefined;
    if (!this.store.challenge || this.info.over || !token) return null;
    const free = this.info.seats.filter(s => s.kind === 'open' && s.joined === false && !this.local.includes(s.seat));
    if (!free.length) return null;
    const levels = SEAT_CHOICES.filter(([value]) => value.startsWith('computer:'));
    const row = (seat: { seat: Seat; name: string }) => {
      const chosen = `computer:${this.fillLevels.get(seat.seat) ?? 'level4'}`;
      const level = h(
        'select.fill-level',
        {
          'data-seat': seat.seat,
          'aria-label': `Computer level for ${seat.name}`,
          onchange: () => this.fillLevels.set(seat.seat, level.value),
        },
        levels.map(([value, label]) => h('option', { value: value.slice('computer:'.length), selected: value === chosen }, label)),
      );
      const fill = h('button.fill', { type: 'button', 'data-seat': seat.seat }, `Fill ${seat.name} with computer`);
      fill.addEventListener('click', async () => {
        fill.disabled = true;
        try {
          await fillSeat(this.id, token, seat.seat, level.value);
          this.info = await gameInfo(this.id);
          this.render();
        } catch (e) {
          this.setError(e);
          this.render();
        }
      });
      return h('div.fill-row', {}, level, fill);
    };
    return h(
      'section.waiting-room',
      {},
      h('h3', {}, 'Waiting for an opponent'),
      h('p', {}, `Your game is listed in the lobby under “Open challenges”: the first to take ${free.map(s => s.name).join(' or ')} plays it. Nobody coming?`),
      free.map(row),
    );
  }

  /** The invite links of seats left for friends who have not come yet; a line for each who has. */
  private invites(view: View): HTMLElement | null {
    const sent = this.store.invites.filter(i => !this.local.includes(i.seat));
    if (!sent.length || view.outcome) return null;
    const open = sent.filter(i => !this.joined(i.seat));
    return h(
      'section.invites',
      {},
      open.length ? h('h3', {}, 'Invite') : null,
      sent.filter(i => this.joined(i.seat)).map(i => h('p.joined', { 'data-seat': i.seat }, `${i.name} has joined`)),
      open.map(invite => {
        const url = new URL(invite.path, location.origin).href;
        const input = h('input.invite-link', { type: 'text', readonly: true, value: url, 'data-seat': invite.seat });
        const button = h('button.copy', { type: 'button' }, 'Copy');
        button.addEventListener('click', async () => {
          const ok = await copyText(url, input);
          button.textContent = ok ? 'Copied' : 'Select and copy';
        });
        return h('div.invite', {}, h('span', {}, `${invite.name}: send this link to your friend`), h('div.copy-row', {}, input, button));
      }),
      open.length && isLocalHost(location.hostname)
        ? h(
            'p.note.local-link',
            {},
            'This link works only on this computer. For a friend on another device, start the server with ',
            h('code', {}, 'chesskit serve --host 0.0.0.0'),
            ' and open this page at your computer’s network address.',
          )
        : null,
    );
  }

  private exports(view: View): HTMLElement | null {
    if (!view.outcome && this.hiddenInformation) return null;
    const base = `/api/games/${encodeURIComponent(this.id)}/export`;
    const pgn = this.variant?.pgn
      ? [h('a', { href: `${base}?format=pgn`, download: `${this.id}.pgn` }, 'Download PGN'), ' · ']
      : [];
    return h(
      'section.export',
      {},
      ...pgn,
      h('a', { href: `${base}?format=log`, download: `${this.id}.json` }, 'Game record'),
    );
  }
}
