// The lobby's games with strangers (docs/api.md, "The lobby"): the open
// challenges anyone may take a seat in, under the name kept in
// localStorage, and the games being played that anyone may watch. Both
// lists are asked for again every few seconds while the lobby is open.

import { ApiError, listChallenges, listLive, takeSeat } from './api.ts';
import { h } from './dom.ts';
import { loadName, saveName, saveGame, storedGameIds } from './store.ts';
import type { LobbyGame, LobbySeat } from './types.ts';
import { ago, list, plural } from './view.ts';

/** How often the lobby asks for the lists again. */
const REFRESH_MS = 4000;

/** The longest name the server takes (crates/server/src/names.rs, MAX_NAME_CHARS). */
export const MAX_NAME_CHARS = 24;

/** The field for the player's name: filled with the one kept, and kept again as it is typed. */
export function nameInput(id: string): HTMLInputElement {
  const input = h('input.player-name', {
    id,
    type: 'text',
    name: 'player-name',
    maxlength: MAX_NAME_CHARS,
    autocomplete: 'nickname',
    placeholder: 'Your name',
    value: loadName(localStorage),
  });
  input.addEventListener('input', () => {
    saveName(localStorage, input.value);
    // Every name field of the page shows the same name.
    for (const other of document.querySelectorAll<HTMLInputElement>('input.player-name')) {
      if (other !== input) other.value = input.value;
    }
  });
  return input;
}

/** "Ada (White) and Bob (Black)": who holds the seats, each with the seat's name. */
export function playersLine(seats: readonly LobbySeat[]): string {
  return list(seats.filter(s => s.player).map(s => `${s.player} (${s.name})`));
}

/** "Hand size 5, Clock true": the options a game was created with, or "" with none. */
export function optionsLine(options: Record<string, unknown>): string {
  return Object.entries(options)
    .map(([name, value]) => `${name.replace(/_/g, ' ').replace(/^./, c => c.toUpperCase())} ${String(value)}`)
    .join(', ');
}

/** The two sections, refreshed on their own until the page is left. */
export function lobbyLists(): HTMLElement[] {
  const challenges = h('div.lobby-cards', { 'aria-live': 'polite' }, h('p.note', {}, 'Asking the server…'));
  const live = h('div.lobby-cards', {}, h('p.note', {}, 'Asking the server…'));
  const error = h('p.error', { role: 'alert', hidden: true });
  const name = nameInput('challenge-name');
  const refresh = async () => {
    try {
      const [open, playing] = await Promise.all([listChallenges(), listLive()]);
      challenges.replaceChildren(...(open.length ? open.map(g => challengeCard(g, name, error)) : [h('p.note', {}, 'No open challenges right now. Open one: choose a game below and tick “Open to anyone”.')]));
      live.replaceChildren(...(playing.length ? playing.map(liveCard) : [h('p.note', {}, 'No games are being played in the lobby right now.')]));
    } catch {
      // Offline: the lists stay as they were, and the next round tries again.
    }
  };
  void refresh();
  window.setInterval(() => void refresh(), REFRESH_MS);
  return [
    h(
      'section.challenges',
      {},
      h('div.section-head', {}, h('h2', {}, 'Open challenges'), h('label.name-field', { for: 'challenge-name' }, 'Play as ', name)),
      error,
      challenges,
    ),
    h('section.live-games', {}, h('h2', {}, 'Live games'), live),
  ];
}

/** An open challenge: the game, who opened it, and a button for each free seat (the creator's own says so instead). */
function challengeCard(game: LobbyGame, name: HTMLInputElement, error: HTMLElement): HTMLElement {
  const mine = storedGameIds(localStorage).includes(game.id);
  const free = game.seats.filter(s => s.kind === 'open' && !s.player);
  const take = async (seat: LobbySeat, button: HTMLButtonElement) => {
    error.hidden = true;
    if (!name.value.trim()) {
      error.textContent = 'Enter your name first: the other players see it.';
      error.hidden = false;
      name.focus();
      return;
    }
    button.disabled = true;
    try {
      const taken = await takeSeat(game.id, seat.seat, name.value);
      saveGame(localStorage, game.id, { tokens: { [String(taken.seat)]: taken.token }, invites: [], title: game.title, options: game.options });
      location.assign(`/play/${encodeURIComponent(game.id)}`);
    } catch (e) {
      error.textContent = e instanceof ApiError ? e.message : String(e);
      error.hidden = false;
      button.disabled = false;
    }
  };
  const options = optionsLine(game.options);
  // At a larger table, who else has sat down already.
  const joined = game.seats.some(s => s.player && s.player !== game.creator);
  return h(
    'article.lobby-card.challenge',
    { 'data-game': game.id },
    h('span.lobby-title', {}, game.title),
    h('span.lobby-who', {}, `Opened by ${game.creator} ${ago(Math.max(0, Date.now() / 1000 - game.created))}`),
    options ? h('span.lobby-options', {}, options) : null,
    joined ? h('span.lobby-seats', {}, playersLine(game.seats)) : null,
    mine
      ? h('a.lobby-mine', { href: `/play/${encodeURIComponent(game.id)}` }, 'Your challenge: waiting for an opponent')
      : h(
          'div.lobby-actions',
          {},
          free.map(seat => {
            const button = h('button.primary.take', { type: 'button', 'data-seat': seat.seat }, `Play ${seat.name}`);
            button.addEventListener('click', () => void take(seat, button));
            return button;
          }),
        ),
  );
}

/** A game being played: who plays whom, how far it is, and a link to watch. */
function liveCard(game: LobbyGame): HTMLElement {
  const moves = plural(game.moves, 'move');
  return h(
    'article.lobby-card.live',
    { 'data-game': game.id },
    h('span.lobby-title', {}, game.title),
    h('span.lobby-seats', {}, playersLine(game.seats)),
    h('span.lobby-who', {}, moves),
    h('a.watch', { href: `/play/${encodeURIComponent(game.id)}` }, 'Watch'),
  );
}
