// The lobby at `/`: the variants, a form for the chosen one (its options and
// who sits in each seat), and the games this browser is playing.

import { ApiError, createGame, listVariants } from './api.ts';
import { h } from './dom.ts';
import { rulesDetails } from './rules.ts';
import { type StoredGame, loadGame, saveGame, storedGameIds } from './store.ts';
import type { CreatedGame, OptionSpec, VariantInfo } from './types.ts';

/** Who fills a seat, as the lobby offers it. */
export type SeatChoice = 'me' | 'computer:random' | 'computer:level2' | 'computer:level3' | 'open' | 'local';

/** The computer's levels (chesskit_ai::LEVELS): random moves, greedy (the default), flat Monte Carlo (slower). */
export const SEAT_CHOICES: [SeatChoice, string][] = [
  ['me', 'Me'],
  ['computer:random', 'Computer (easy: random)'],
  ['computer:level2', 'Computer (medium)'],
  ['computer:level3', 'Computer (hard)'],
  ['open', 'Invite a friend'],
  ['local', 'Another person on this device'],
];

/** The seat kinds the API takes: people on this device are "human", friends "open", computers name their level. */
export function seatKind(choice: SeatChoice): string {
  return choice === 'me' || choice === 'local' ? 'human' : choice;
}

/** The first seat is mine, the others the computer's at its default level. */
export const defaultSeats = (variant: VariantInfo): SeatChoice[] =>
  variant.seats.map((_, i) => (i === 0 ? 'me' : 'computer:level2'));

/** How the game page names a computer seat's kind: "computer (hard)"; null for a seat that is no computer's. */
export function computerLabel(kind: string): string | null {
  if (kind !== 'computer' && !kind.startsWith('computer:')) return null;
  const level = kind.slice('computer:'.length);
  const names: Record<string, string> = {
    '': 'medium',
    random: 'easy',
    level1: 'easy',
    level2: 'medium',
    greedy: 'medium',
    level3: 'hard',
    montecarlo: 'hard',
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
  const choose = (v: VariantInfo, scroll: boolean) => {
    for (const el of main.querySelectorAll('.variant')) el.classList.toggle('selected', el.getAttribute('data-variant') === v.name);
    formHolder.replaceChildren(newGameForm(v));
    // On a phone the form is below the list: bring it into view.
    if (scroll && matchMedia('(max-width: 700px)').matches) formHolder.scrollIntoView({ block: 'start' });
  };
  const cards = variants.map(v =>
    h(
      'button.variant',
      { type: 'button', 'data-variant': v.name, onclick: () => choose(v, true) },
      h('span.variant-title', {}, v.title, v.experimental ? h('span.badge', {}, 'experimental') : null,
        v.hidden_information ? h('span.badge.secret', { title: 'Players hold secrets' }, 'hidden information') : null),
      h('span.variant-summary', {}, v.summary),
    ),
  );
  main.replaceChildren(
    h('section.variants', {}, h('h2', {}, 'Choose a game'), h('div.variant-list', {}, cards)),
    formHolder,
    myGames() ?? '',
  );
  if (variants[0]) choose(variants[0], false);
}

export function header(extra?: Node): HTMLElement {
  return h('header.top', {}, h('a.brand', { href: '/' }, 'chesskit'), extra ?? null);
}

function optionInput(spec: OptionSpec, onChange?: (e: Event) => void): HTMLElement {
  const id = `opt-${spec.name}`;
  const common = { id, name: spec.name, 'data-option': spec.name, oninput: onChange, onchange: onChange };
  switch (spec.type) {
    case 'bool':
      return h('input', { ...common, type: 'checkbox', checked: spec.default === true });
    case 'int':
      return h('input', { ...common, type: 'number', min: spec.min, max: spec.max, step: 1, value: String(spec.default ?? spec.min) });
    case 'choice':
      return h(
        'select',
        common,
        spec.choices.map(c => h('option', { value: c, selected: c === spec.default }, c)),
      );
    default:
      return h('input', { ...common, type: 'text', value: String(spec.default ?? '') });
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

function newGameForm(variant: VariantInfo): HTMLElement {
  let seats = defaultSeats(variant);
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
  const seatRows = h('div.seat-rows', {}, variant.seats.map(seatRow));
  // A game whose number of seats is an option (`players`): the seat list follows it, keeping the choices made.
  const playersSpec = variant.options.find(o => o.name === 'players' && o.type === 'int');
  const onPlayers = (e: Event) => {
    const n = playersFromOption(playersSpec, (e.target as HTMLInputElement).value);
    if (n === null || n === seats.length) return;
    seats = Array.from({ length: n }, (_, i) => seats[i] ?? (i === 0 ? 'me' : 'computer:level2'));
    seatRows.replaceChildren(...seatNames(variant, n).map(seatRow));
  };
  const create = h('button.primary', { type: 'submit', id: 'create' }, 'Create game');
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        create.disabled = true;
        error.hidden = true;
        try {
          const created = await createGame({
            variant: variant.name,
            options: readOptions(form, variant.options),
            seats: seats.map(seatKind),
          });
          const stored = storedFromCreated(created, variant.title);
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
          variant.options.map(spec =>
            h(
              'div.option',
              {},
              h('label', { for: `opt-${spec.name}` }, spec.name.replace(/_/g, ' ')),
              optionInput(spec, spec === playersSpec ? onPlayers : undefined),
              spec.help ? h('small.help', {}, spec.help) : null,
            ),
          ),
        )
      : null,
    h('fieldset.seats', {}, h('legend', {}, 'Players'), seatRows),
    error,
    create,
  );
  return form;
}

/** Games this browser holds seats in, newest first. */
function myGames(): HTMLElement | null {
  const ids = storedGameIds(localStorage);
  if (!ids.length) return null;
  return h(
    'section.my-games',
    {},
    h('h2', {}, 'Your games'),
    h(
      'ul',
      {},
      ids.map(id => {
        const game = loadGame(localStorage, id);
        return h('li', {}, h('a', { href: `/play/${encodeURIComponent(id)}` }, game.title ?? 'Game', ` · ${id}`));
      }),
    ),
  );
}
