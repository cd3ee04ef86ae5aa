// The server's HTTP and WebSocket API (docs/api.md), nothing else.

import type {
  ActionResponse,
  Analysis,
  BookExample,
  CreatedGame,
  FilledSeat,
  ExampleAnswer,
  GameInfo,
  LobbyGame,
  RematchSeat,
  ServerMessage,
  SeatKind,
  TakenSeatReply,
  VariantInfo,
  View,
  ViewResponse,
} from './types.ts';

/** A refused request: the status and the server's own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${e instanceof Error ? e.message : e})`);
  }
  const text = await response.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the text itself is the best message we have.
  }
  if (!response.ok) {
    const message =
      data && typeof data === 'object' && 'error' in data ? String(data.error) : text || response.statusText;
    throw new ApiError(response.status, message);
  }
  return data as T;
}

const q = encodeURIComponent;

export const listVariants = (): Promise<VariantInfo[]> => request('GET', '/api/variants');

/** The book's worked examples of a game, each set up for the player to try (docs/api.md). */
export const fetchExamples = (variant: string): Promise<BookExample[]> =>
  request('GET', `/api/variants/${q(variant)}/examples`);

/** The referee's answer to every move tried so far on example `index`, from its position. */
export const tryExample = (variant: string, index: number, actions: string[]): Promise<ExampleAnswer> =>
  request('POST', `/api/variants/${q(variant)}/examples/${index}`, { actions });

/** A variant's rules document, as markdown (docs/games/<name>.md). */
export async function fetchRules(variant: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/api/variants/${q(variant)}/rules`);
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${e instanceof Error ? e.message : e})`);
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text || response.statusText;
    try {
      message = String(JSON.parse(text).error ?? message);
    } catch {
      // Not JSON: the text itself is the best message we have.
    }
    throw new ApiError(response.status, message);
  }
  return text;
}

/** A seat's place in the rematch of a finished game (POST /api/games/{id}/rematch, docs/api.md). */
/** Start the rematch of finished game `id`, or find the one another seat started: this seat's place in it. */
export const rematchSeat = (id: string, token: string): Promise<RematchSeat> =>
  request('POST', `/api/games/${q(id)}/rematch`, { token });

export interface NewGame {
  variant: string;
  options: Record<string, unknown>;
  seats: SeatKind[];
  seed?: number;
  position?: string;
  /** List the game in the lobby as an open challenge, under the creator's `name`. */
  open?: boolean;
  name?: string;
}

export const createGame = (game: NewGame): Promise<CreatedGame> => request('POST', '/api/games', game);

/** The lobby's open challenges, newest first (docs/api.md, "The lobby"). */
export const listChallenges = (): Promise<LobbyGame[]> => request('GET', '/api/challenges');

/** The lobby's games being played, which anyone may watch, newest first. */
export const listLive = (): Promise<LobbyGame[]> => request('GET', '/api/live');

/** Take free seat `seat` of challenge `id` under `name`: the seat's token. */
export const takeSeat = (id: string, seat: number, name: string): Promise<TakenSeatReply> =>
  request('POST', `/api/games/${q(id)}/take`, { seat, name });

/** Let a computer of `level` play the free seat `seat` of challenge `id`, for the holder of `token`. */
export const fillSeat = (id: string, token: string, seat: number, level: string): Promise<FilledSeat> =>
  request('POST', `/api/games/${q(id)}/fill`, { token, seat, level });

export const gameInfo = (id: string): Promise<GameInfo> => request('GET', `/api/games/${q(id)}`);

/** The game record (`format=log`): the variant and the options it was created with, among others. */
export const gameRecord = (id: string): Promise<{ variant: string; options?: Record<string, unknown> }> =>
  request('GET', `/api/games/${q(id)}/export?format=log`);

/** A viewer's view: whole, or with `since` (the version held) the change since then. */
export const fetchView = (id: string, token?: string, since?: number): Promise<ViewResponse> => {
  const query = [token ? `token=${q(token)}` : '', since === undefined ? '' : `since=${since}`].filter(Boolean);
  return request('GET', `/api/games/${q(id)}/view${query.length ? `?${query.join('&')}` : ''}`);
};

/** Whether a finished game's deal could have been won, from the server's solver (a few seconds the first time). */
export const fetchAnalysis = (id: string): Promise<Analysis> => request('GET', `/api/games/${q(id)}/analysis`);

/** Act for a seat; with `since` (the version held) the reply's view is the change since then. */
export const postAction = (id: string, token: string, action: string, since?: number): Promise<ActionResponse> =>
  request('POST', `/api/games/${q(id)}/actions`, since === undefined ? { token, action } : { token, action, since });

/**
 * A live feed of one viewer's views over the game's WebSocket. It reconnects
 * on its own (with a growing pause) until closed, and reports its state so
 * the page can say when it is offline.
 */
export class GameSocket {
  private socket?: WebSocket;
  private closed = false;
  private retries = 0;
  private timer?: number;

  constructor(
    private readonly id: string,
    private readonly token: string | undefined,
    private readonly onView: (version: number, view: View, from?: number) => void,
    private readonly onState: (online: boolean) => void,
    /** The version the page holds, if any: a reconnection catches up from it. */
    private readonly held: () => number | undefined = () => undefined,
  ) {
    this.connect();
  }

  private url(): string {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const since = this.held();
    const query = [this.token ? `token=${q(this.token)}` : '', since === undefined ? '' : `since=${since}`].filter(
      Boolean,
    );
    return `${scheme}//${location.host}/api/games/${q(this.id)}/ws${query.length ? `?${query.join('&')}` : ''}`;
  }

  /**
   * Ask for the change since `version` (the version held), or the whole view:
   * after a change from a version the page does not hold. Whether it was sent.
   */
  sync(version: number | undefined): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(version === undefined ? { type: 'sync' } : { type: 'sync', version }));
    return true;
  }

  private connect(): void {
    if (this.closed) return;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.onopen = () => {
      this.retries = 0;
      this.onState(true);
    };
    socket.onmessage = event => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === 'view') this.onView(message.version, message.view);
      else if (message.type === 'change') this.onView(message.version, message.view, message.from);
    };
    socket.onclose = () => {
      if (this.socket !== socket || this.closed) return;
      this.onState(false);
      const pause = Math.min(10_000, 500 * 2 ** this.retries++);
      this.timer = window.setTimeout(() => this.connect(), pause);
    };
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.socket?.close();
  }
}
