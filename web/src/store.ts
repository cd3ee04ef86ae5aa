// What this browser remembers of each game, in localStorage keyed by game
// id: the tokens of the seats played on this device (so a reload keeps the
// game) and the invite links of seats left open for friends.

import type { Seat } from './types.ts';

export interface Invite {
  seat: Seat;
  name: string;
  /** The invite path as the server gave it: `/play/<id>?token=...`. */
  path: string;
}

export interface StoredGame {
  /** Seat number -> token, for every seat played on this device. */
  tokens: Record<string, string>;
  invites: Invite[];
  /** The variant's title, for the lobby's list of this browser's games. */
  title?: string;
  /** When this browser first stored the game (ms since the epoch), to list the newest first. */
  saved?: number;
  /** Seat number -> how many log entries that seat's player has seen, so the page can say what happened since. */
  seen?: Record<string, number>;
  /** The options the game was created with (for "New game" and "Rematch" when the server will not say). */
  options?: Record<string, unknown>;
  /** Whether it was opened as a challenge in the lobby, whose free seats strangers take or a computer fills. */
  challenge?: boolean;
}

/** The subset of the Storage interface we use, so tests can pass a Map. */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  readonly length: number;
  key(index: number): string | null;
}

const PREFIX = 'chesskit:game:';
const key = (id: string) => PREFIX + id;

export function loadGame(storage: KeyValue, id: string): StoredGame {
  try {
    const raw = storage.getItem(key(id));
    if (raw) {
      const data = JSON.parse(raw);
      return {
        tokens: { ...(data.tokens ?? {}) },
        invites: Array.isArray(data.invites) ? data.invites : [],
        title: typeof data.title === 'string' ? data.title : undefined,
        saved: typeof data.saved === 'number' ? data.saved : undefined,
        seen: counts(data.seen),
        options: data.options && typeof data.options === 'object' && !Array.isArray(data.options) ? data.options : undefined,
        challenge: data.challenge === true ? true : undefined,
      };
    }
  } catch {
    // A damaged entry is as good as none.
  }
  return { tokens: {}, invites: [] };
}

/** Only the whole, non-negative numbers of a stored `seen` record. */
function counts(raw: unknown): Record<string, number> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(raw)) if (Number.isInteger(v) && (v as number) >= 0) out[k] = v as number;
  return out;
}

export function saveGame(storage: KeyValue, id: string, game: StoredGame): void {
  try {
    storage.setItem(key(id), JSON.stringify({ ...game, saved: game.saved ?? Date.now() }));
  } catch {
    // Private mode or a full store: the game still works until reload.
  }
}

/** The seats this device plays, in seat order. */
export function localSeats(game: StoredGame): Seat[] {
  return Object.keys(game.tokens)
    .map(Number)
    .filter(n => Number.isInteger(n))
    .sort((a, b) => a - b);
}

/** The ids of every game this browser holds, newest first. */
export function storedGameIds(storage: KeyValue): string[] {
  const ids: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const k = storage.key(i);
    if (k?.startsWith(PREFIX)) ids.push(k.slice(PREFIX.length));
  }
  const saved = (id: string) => loadGame(storage, id).saved ?? 0;
  return ids.sort((a, b) => saved(b) - saved(a));
}

/** Where the name the player goes by in the lobby is kept (not a game: outside PREFIX). */
const NAME_KEY = 'chesskit:name';

/** The name this browser's player chose last, or "". */
export function loadName(storage: Pick<KeyValue, 'getItem'>): string {
  try {
    return storage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Remember the player's name for the next challenge. */
export function saveName(storage: Pick<KeyValue, 'setItem'>, name: string): void {
  try {
    storage.setItem(NAME_KEY, name.trim());
  } catch {
    // Private mode or a full store: the name is asked again next time.
  }
}
