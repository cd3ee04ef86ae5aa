// The lobby at `/`: the variants, a form for the chosen one (its options and
// who sits in each seat), and the games this browser is playing.

import { ApiError, createGame, gameInfo, listVariants } from './api.ts';
import { lobbyLists, nameInput } from './challenges.ts';
import { h } from './dom.ts';
import { rulesDetails } from './rules.ts';
import { type StoredGame, loadGame, localSeats, saveGame, storedGameIds } from './store.ts';
import type { CreatedGame, GameInfo, OptionSpec, Seat, SeatSummary, VariantInfo } from './types.ts';
import { ago, list, outcomeWords } from './view.ts';

/** Who fills a seat, as the lobby offers it. */
export type SeatChoice =
  | 'me'
  | 'computer:random'
  | 'computer:level2'
  | 'computer:level4'
  | 'computer:level6'
  | 'computer:level8'
  | 'open'
  | 'local';

/**
 * The computer's levels (chesskit_ai::LEVELS) as the lobby names them: random moves; easy, greedy (level 2);
 * medium, the default, a short search (level 4); hard, a longer one (level 6); strongest, about a second a
 * decision (level 8). Other levels (3, flat Monte Carlo; 5; 7) are played when a game names them, and a
 * new game like one of theirs gets the default.
 */
export const SEAT_CHOICES: [SeatChoice, string][] = [
  ['me', 'Me'],
  ['computer:random', 'Computer (random moves)'],
  ['computer:level2', 'Computer (easy)'],
  ['computer:level4', 'Computer (medium)'],
  ['computer:level6', 'Computer (hard)'],
  ['computer:level8', 'Computer (strongest)'],
  ['open', 'Invite a friend'],
  ['local', 'Another person on this device'],
];


/** The seat kinds the API takes: people on this device are "human", friends "open", computers name their level. */
export function seatKind(choice: SeatChoice): string {
  return choice === 'me' || choice === 'local' ? 'human' : choice;
}

/** The first seat is mine, the others the computer's at its default level. */
export const defaultSeats = (variant: VariantInfo): SeatChoice[] =>
  variant.seats.map((_, i) => (i === 0 ? 'me' : 'computer:level4'));

/** How the game page names a computer seat's kind: "computer (hard)"; null for a seat that is no computer's. */
export function computerLabel(kind: string): string | null {
  if (kind !== 'computer' && !kind.startsWith('computer:')) return null;
  const level = kind.slice('computer:'.length);
  const names: Record<string, string> = {
    '': 'easy',
    random: 'random moves',
    level1: 'random moves',
    level2: 'easy',
    greedy: 'easy',
    level3: 'level 3',
    montecarlo: 'level 3',
    level4: 'medium',
    level5: 'level 5',
    level6: 'hard',
    level7: 'level 7',
    level8: 'strongest',
  };
  return `computer (${names[level] ?? level})`;
}

/** What this browser keeps of a new game: tokens of its own seats, invite links of open ones. */
export function storedFromCreated(created: CreatedGame, title: string): StoredGame {
  const stored: StoredGame = { tokens: {}, invites: [], title };
  for (const seat of created.seats) {
    if (!seat.token) continue;
    if (seat.kind === 'open') {
      stored.invites.push({ seat: seat.seat, name: seat.name, path: seat.invite ?? `/play/${created.id}?token=${seat.token}` });
    } else {
      stored.tokens[String(seat.seat)] = seat.token;
    }
  }
  return stored;
}

/** Where to go after creating: the game page with the first local seat's token. */
export function playPath(created: CreatedGame, stored: StoredGame): string {
  const first = Object.keys(stored.tokens).map(Number).sort((a, b) => a - b)[0];
  const token = first === undefined ? undefined : stored.tokens[String(first)];
  return `/play/${encodeURIComponent(created.id)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/** Whether the page was opened by a name only this computer can reach, so its invite links work nowhere else. */
export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\./.test(hostname);
}

/** The lobby's choice for each seat of a game like `info`, from this device's point of view (someone here is "Me"). */
export function seatChoices(info: GameInfo, local: readonly Seat[]): SeatChoice[] {
  let me = false;
  const choices = info.seats.map((s): SeatChoice => {
    if (local.includes(s.seat)) {
      const choice = me ? 'local' : 'me';
      me = true;
      return choice;
    }
    if (s.kind === 'computer') return 'computer:level2'; // the server's default level
    if (SEAT_CHOICES.some(([value]) => value === s.kind && s.kind.startsWith('computer:'))) return s.kind as SeatChoice;
    if (computerLabel(s.kind)) return 'computer:level4';
    return 'open';
  });
  if (!me) {
    const first = Math.max(0, choices.indexOf('open'));
    if (choices.length) choices[first] = 'me';
  }
  return choices;
}

/** The lobby, its form filled in for a game like `info`: the same variant, options and seats ("New game"). */
export function newGamePath(info: GameInfo, local: readonly Seat[], options: Record<string, unknown>): string {
  const params = new URLSearchParams({ variant: info.variant });
  if (Object.keys(options).length) params.set('options', JSON.stringify(options));
  params.set('seats', seatChoices(info, local).join(','));
  return `/?${params}`;
}

/** A form filled in ahead: what `newGamePath` put in the address. */
export interface Preset {
  variant: string;
  options: Record<string, unknown>;
  seats: SeatChoice[];
}

/** The preset in a lobby address's query, or null; unreadable parts are left out. */
export function readPreset(search: string): Preset | null {
  const params = new URLSearchParams(search);
  const variant = params.get('variant');
  if (!variant) return null;
  let options: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(params.get('options') ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) options = parsed;
  } catch {
    // Unreadable options: the defaults.
  }
  const known = new Set(SEAT_CHOICES.map(([value]) => value));
  const raw = (params.get('seats') ?? '').split(',').filter(Boolean);
  const seats = raw.every(c => known.has(c as SeatChoice)) ? (raw as SeatChoice[]) : [];
  return { variant, options, seats };
}

/** A seat of a listed game, as seen from this browser: "computer, hard", "friend", "invited friend". */
function seatWho(seat: SeatSummary): string {
  const computer = computerLabel(seat.kind);
  if (computer) return computer.replace(' (', ', ').replace(/\)$/, '');
  if (seat.kind === 'open') return seat.joined === false ? 'invited friend, not come yet' : 'friend';
  return 'player';
}

/** One line of "Your games", in words: whom against, whose turn (or the result), and when. */
export interface GameLine {
  title: string;
  opponents: string;
  turn: string;
  /** "yours", "theirs", "over" or "" (the server does not say). */
  state: string;
  when: string;
}

export function gameLine(info: GameInfo, stored: StoredGame, nowSeconds: number): GameLine {
  const local = localSeats(stored);
  const names = info.seats.map(s => s.name);
  const others = info.seats.filter(s => !local.includes(s.seat));
  const here = info.seats.filter(s => local.includes(s.seat)).map(s => s.name);
  const opponents = !local.length
    ? `watching ${list(names)}`
    : !others.length
      ? `${list(here)} on this device`
      : `against ${list(others.map(s => `${s.name} (${seatWho(s)})`))}`;
  let turn = '';
  let state = '';
  if (info.over) {
    state = 'over';
    turn = info.outcome ? `Over: ${outcomeWords(names, info.outcome)}` : 'Over';
  } else if (info.to_act) {
    const mine = info.to_act.filter(s => local.includes(s));
    const theirs = info.to_act.filter(s => !local.includes(s)).map(s => names[s] ?? `Seat ${s + 1}`);
    if (mine.length) {
      state = 'yours';
      turn = local.length > 1 ? `${list(mine.map(s => names[s]))} to play` : 'Your turn';
    } else if (theirs.length) {
      state = 'theirs';
      turn = `Waiting for ${list(theirs)}`;
    }
  }
  const updated = info.updated ?? info.created;
  const started = info.created > 0 ? `started ${ago(nowSeconds - info.created)}` : '';
  const when = updated > info.created && info.created > 0 ? `last move ${ago(nowSeconds - updated)} · ${started}` : started;
  return { title: info.title, opponents, turn, state, when };
}

export async function lobbyPage(root: HTMLElement): Promise<void> {
  document.title = 'chesskit';
  const main = h('main.lobby', {}, h('p.loading', {}, 'Loading the games…'));
  root.replaceChildren(header(), main);
  let variants: VariantInfo[];
  try {
    variants = await listVariants();
  } catch (e) {
    main.replaceChildren(h('p.error', { role: 'alert' }, `Cannot load the list of games: ${(e as Error).message}`));
    return;
  }
  const formHolder = h('section.new-game', { id: 'new-game' });
  const choose = (v: VariantInfo, scroll: boolean, preset?: Preset) => {
    for (const el of main.querySelectorAll('.variant')) el.classList.toggle('selected', el.getAttribute('data-variant') === v.name);
    formHolder.replaceChildren(newGameForm(v, preset));
    // On a phone the form is below the list: bring it into view.
    if (scroll && matchMedia('(max-width: 700px)').matches) formHolder.scrollIntoView({ block: 'start' });
  };
  const card = (v: VariantInfo) =>
    h(
      'button.variant',
      { type: 'button', 'data-variant': v.name, onclick: () => choose(v, true) },
      h('span.variant-title', {}, v.title, v.experimental ? h('span.badge', {}, 'experimental') : null,
        v.hidden_information ? h('span.badge.secret', { title: 'Players hold secrets' }, 'hidden information') : null),
      playersNote(v) ? h('span.variant-players', {}, playersNote(v)) : null,
      h('span.variant-summary', {}, v.summary),
    );
  const groups = groupByPlayers(variants).map(([players, group]) =>
    h(
      'div.variant-group',
      { 'data-players': players },
      h('h3', {}, playersHeading(players)),
      h('div.variant-list', {}, group.map(card)),
    ),
  );
  // The games under way first: a returning player looks for them, not for the list of every game;
  // then the games strangers offer and play, then every game to start.
  main.replaceChildren(
    ...[myGames(), ...lobbyLists(), h('section.variants', {}, h('h2', {}, 'Choose a game'), groups), formHolder].filter(x => x !== null),
  );
  // "New game" at the end of a game: its variant, options and seats, ready to create.
  const preset = readPreset(location.search);
  const presetVariant = preset && variants.find(v => v.name === preset.variant);
  if (preset) history.replaceState(null, '', '/');
  if (presetVariant) choose(presetVariant, true, preset);
  else if (variants[0]) choose(variants[0], false);
}

/** How many play a game as its seats stand by default: one for a solitaire, two, four. */
export const defaultPlayers = (v: VariantInfo): number => v.seats.length;

/**
 * The variants grouped by how many play them by default (solitaires, two
 * players, four), fewest first; within a group the lobby's order, the
 * experimental games after the others.
 */
export function groupByPlayers(variants: readonly VariantInfo[]): [number, VariantInfo[]][] {
  const groups = new Map<number, VariantInfo[]>();
  for (const v of variants) groups.set(defaultPlayers(v), [...(groups.get(defaultPlayers(v)) ?? []), v]);
  return [...groups]
    .sort(([a], [b]) => a - b)
    .map(([n, group]) => [n, [...group.filter(v => !v.experimental), ...group.filter(v => v.experimental)]]);
}

/** A group's heading: "Solitaires: one player", "Two players", "Four players". */
export function playersHeading(players: number): string {
  const words = ['no one', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
  if (players === 1) return 'Solitaires: one player';
  const n = words[players] ?? String(players);
  return `${n.replace(/^./, c => c.toUpperCase())} players`;
}

/** "1 to 8 players" for a game whose number of players is an option; null when it is fixed. */
export function playersNote(v: VariantInfo): string | null {
  const min = v.min_players ?? defaultPlayers(v);
  const max = v.max_players ?? defaultPlayers(v);
  return min === max ? null : `${min} to ${max} players`;
}

/** An option's label in words: the game's own, else its name without underscores. */
export function optionLabel(spec: OptionSpec): string {
  return spec.label ?? spec.name.replace(/_/g, ' ').replace(/^./, c => c.toUpperCase());
}

export function header(...extra: Node[]): HTMLElement {
  return h('header.top', {}, h('a.brand', { href: '/' }, 'chesskit'), extra);
}

function optionInput(spec: OptionSpec, onChange?: (e: Event) => void, preset?: unknown): HTMLElement {
  const id = `opt-${spec.name}`;
  const common = { id, name: spec.name, 'data-option': spec.name, oninput: onChange, onchange: onChange };
  const value = preset ?? spec.default;
  switch (spec.type) {
    case 'bool':
      return h('input', { ...common, type: 'checkbox', checked: value === true });
    case 'int':
      return h('input', { ...common, type: 'number', min: spec.min, max: spec.max, step: 1, value: String(value ?? spec.min) });
    case 'choice':
      return h(
        'select',
        common,
        spec.choices.map(c => h('option', { value: c, selected: c === value }, c)),
      );
    default:
      return h('input', { ...common, type: 'text', value: String(value ?? '') });
  }
}

/** The options object from the form: only values that differ from their defaults. */
function readOptions(form: HTMLElement, specs: OptionSpec[]): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const spec of specs) {
    const el = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-option="${spec.name}"]`);
    if (!el) continue;
    let value: unknown;
    if (spec.type === 'bool') value = (el as HTMLInputElement).checked;
    else if (spec.type === 'int') value = Number(el.value);
    else value = el.value;
    if (value !== spec.default) options[spec.name] = value;
  }
  return options;
}

/**
 * The seats' names for a number of players: the variant's own names when
 * the number is its default, else "Player 1" to "Player N" (Chess Golf's
 * `players` option).
 */
export function seatNames(variant: VariantInfo, players: number): string[] {
  if (players === variant.seats.length) return variant.seats;
  return Array.from({ length: players }, (_, i) => `Player ${i + 1}`);
}

/** The number of players an int option named `players` asks for, within its bounds; null without one or when unreadable. */
export function playersFromOption(spec: OptionSpec | undefined, raw: string): number | null {
  if (!spec || spec.type !== 'int') return null;
  const n = Math.trunc(Number(raw));
  if (raw.trim() === '' || !Number.isFinite(n)) return null;
  return Math.min(Math.max(n, spec.min ?? 1), spec.max ?? n);
}

function newGameForm(variant: VariantInfo, preset?: Preset): HTMLElement {
  let seats = preset?.seats.length ? preset.seats : defaultSeats(variant);
  const error = h('p.error', { role: 'alert', hidden: true });
  const seatRow = (name: string, i: number) =>
    h(
      'label.seat-row',
      {},
      h('span.seat-name', {}, name),
      h(
        'select',
        {
          'data-seat': i,
          name: `seat-${i}`,
          onchange: (e: Event) => (seats[i] = (e.target as HTMLSelectElement).value as SeatChoice),
        },
        SEAT_CHOICES.map(([value, label]) => h('option', { value, selected: value === seats[i] }, label)),
      ),
    );
  const seatRows = h('div.seat-rows', {}, seatNames(variant, seats.length).map(seatRow));
  // "Open to anyone": the seats left to a friend are offered in the lobby instead, under the creator's name.
  const creatorName = nameInput('creator-name');
  const nameRow = h('label.name-row', { for: 'creator-name', hidden: true }, h('span', {}, 'Your name'), creatorName);
  const openToAnyone = h('input', { type: 'checkbox', id: 'open-to-anyone', name: 'open' });
  openToAnyone.addEventListener('change', () => {
    nameRow.hidden = !openToAnyone.checked;
    if (openToAnyone.checked && !seats.includes('open')) {
      // A challenge needs a seat for others: the computers' seats are left to them.
      seats = seats.map(choice => (choice.startsWith('computer') ? 'open' : choice));
      seatRows.replaceChildren(...seatNames(variant, seats.length).map(seatRow));
    }
  });
  const openRow = h(
    'div.open-row',
    {},
    h('label.open-to-anyone', {}, openToAnyone, ' Open to anyone: list the game in the lobby, where anyone may take the seats set to “Invite a friend”'),
    nameRow,
  );
  // A game whose number of seats is an option (`players`): the seat list follows it, keeping the choices made.
  const playersSpec = variant.options.find(o => o.name === 'players' && o.type === 'int');
  const onPlayers = (e: Event) => {
    const n = playersFromOption(playersSpec, (e.target as HTMLInputElement).value);
    if (n === null || n === seats.length) return;
    seats = Array.from({ length: n }, (_, i) => seats[i] ?? (i === 0 ? 'me' : 'computer:level4'));
    seatRows.replaceChildren(...seatNames(variant, n).map(seatRow));
  };
  const create = h('button.primary', { type: 'submit', id: 'create' }, 'Create game');
  // Options few people need (Golf's solver nodes) wait behind "More options".
  const basic = variant.options.filter(o => !o.advanced);
  const advanced = variant.options.filter(o => o.advanced);
  const option = (spec: OptionSpec) =>
    h(
      'div.option',
      { 'data-advanced': spec.advanced ? 'yes' : null },
      h('label', { for: `opt-${spec.name}` }, optionLabel(spec)),
      optionInput(spec, spec === playersSpec ? onPlayers : undefined, preset?.options[spec.name]),
      spec.help ? h('small.help', {}, spec.help) : null,
    );
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        create.disabled = true;
        error.hidden = true;
        try {
          const open = openToAnyone.checked;
          const created = await createGame({
            variant: variant.name,
            options: readOptions(form, variant.options),
            seats: seats.map(seatKind),
            ...(open ? { open, name: creatorName.value } : {}),
          });
          const options = readOptions(form, variant.options);
          const stored = { ...storedFromCreated(created, variant.title), options, ...(open ? { challenge: true } : {}) };
          saveGame(localStorage, created.id, stored);
          location.assign(playPath(created, stored));
        } catch (err) {
          error.textContent = err instanceof ApiError ? err.message : String(err);
          error.hidden = false;
          create.disabled = false;
        }
      },
    },
    h('h2', {}, variant.title, variant.experimental ? h('span.badge', {}, 'experimental') : null),
    h('p.summary', {}, variant.summary),
    rulesDetails(variant, { summary: false, label: 'Read the full rules' }),
    variant.options.length
      ? h(
          'fieldset.options',
          {},
          h('legend', {}, 'Options'),
          basic.map(option),
          advanced.length
            ? h('details.more-options', { open: advanced.some(o => preset?.options[o.name] !== undefined) }, h('summary', {}, 'More options'), advanced.map(option))
            : null,
        )
      : null,
    h('fieldset.seats', {}, h('legend', {}, 'Players'), seatRows, openRow),
    error,
    create,
  );
  return form;
}

/** Games this browser holds seats in, newest first: title, opponents, whose turn, when (from the server). */
function myGames(): HTMLElement | null {
  const ids = storedGameIds(localStorage);
  if (!ids.length) return null;
  const list = (some: string[]) => h('ul', {}, some.map(gameItem));
  const older = ids.slice(MY_GAMES_SHOWN);
  return h(
    'section.my-games',
    {},
    h('h2', {}, 'Your games'),
    list(ids.slice(0, MY_GAMES_SHOWN)),
    older.length ? h('details.older-games', {}, h('summary', {}, `${older.length} older ${older.length === 1 ? 'game' : 'games'}`), list(older)) : null,
  );
}

/** The newest games "Your games" shows at once, so the list of games to start stays near the top; older ones fold away. */
export const MY_GAMES_SHOWN = 6;

/** One of "Your games": its title, then what the server says of it (opponents, whose turn, when). */
function gameItem(id: string): HTMLElement {
  const game = loadGame(localStorage, id);
  const title = h('span.my-title', {}, game.title ?? 'Game');
  const detail = h('span.my-detail', {}, 'Asking the server…');
  const item = h('li.my-game', { 'data-game': id }, h('a', { href: `/play/${encodeURIComponent(id)}` }, title, detail));
  gameInfo(id)
    .then(info => {
      const line = gameLine(info, game, Date.now() / 1000);
      item.dataset.state = line.state;
      title.textContent = line.title;
      detail.replaceChildren(
        h('span.my-opponents', {}, line.opponents),
        line.turn ? h('span.my-turn', {}, line.turn) : '',
        line.when ? h('span.my-when', {}, line.when) : '',
      );
    })
    .catch(e => {
      item.dataset.state = 'gone';
      detail.textContent =
        e instanceof ApiError && e.status === 404 ? 'The server no longer has this game' : `Cannot ask the server: ${(e as Error).message}`;
    });
  return item;
}
