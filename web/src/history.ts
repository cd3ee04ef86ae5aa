// Stepping back through the moves: the view this viewer had after the
// first N actions, fetched from `GET /api/games/{id}/view?token=T&at=N`
// (docs/api.md, `at=N`), shown read-only while
// the live game goes on underneath.

import type { LogEntry, Seat, View, ViewResponse } from './types.ts';

export interface Versioned {
  version: number;
  view: View;
}

export type Step = 'first' | 'back' | 'forward' | 'last';

/**
 * The action counts a step may stop at: the start, and after each action
 * that wrote a line in the log (its `at`), in order. A draw offer or a chat
 * line is an action too but writes no line, so stepping passes over it.
 * Empty when the log does not say where its lines stand (then every action
 * is a step).
 */
export function moveStops(log: readonly LogEntry[]): number[] {
  const placed = log.filter(e => e.at !== undefined).map(e => e.at!);
  if (!placed.length) return [];
  return [...new Set([0, ...placed])].sort((a, b) => a - b);
}

/**
 * Where a step lands: clamped to 0..live; `live` itself means back to the
 * game. With `stops` (see `moveStops`) back and forward go to the
 * neighbouring stop, else one action.
 */
export function stepTarget(current: number | undefined, live: number, step: Step, stops: readonly number[] = []): number {
  const at = current ?? live;
  let n: number;
  if (step === 'first') n = 0;
  else if (step === 'last') n = live;
  else if (!stops.length) n = step === 'back' ? at - 1 : at + 1;
  else if (step === 'back') n = [...stops].reverse().find(s => s < at) ?? 0;
  else n = stops.find(s => s > at) ?? live;
  return Math.max(0, Math.min(live, n));
}

/**
 * The move a view after `at` actions stands at, counted as the log counts
 * its moves: the lines with a seat that stand at or before it (a
 * consecutive line of the same action, a note, counts once). Without
 * placed lines the actions are the moves.
 */
export function moveNumber(log: readonly LogEntry[], at: number): number {
  if (!log.some(e => e.at !== undefined)) return at;
  return new Set(log.filter(e => e.seat !== undefined && e.at !== undefined && e.at > 0 && e.at <= at).map(e => e.at)).size;
}

/** The past view with nothing to do in it: looking back never acts. */
export function readOnly(view: View): View {
  return { ...view, actions: [] };
}

/** The address of the view after the first `at` actions. */
export function viewAtUrl(id: string, token: string | undefined, at: number): string {
  const q = encodeURIComponent;
  return `/api/games/${q(id)}/view?${token ? `token=${q(token)}&` : ''}at=${at}`;
}

export class History {
  /** The action count on screen while looking back; undefined when showing the game as it is. */
  at?: number;
  /** The live version, as last seen. */
  live = 0;
  /** Where the moves of the live log stand (see `moveStops`). */
  stops: number[] = [];
  loading?: number;
  error?: string;
  private past?: Versioned;
  private seat?: Seat | null;
  private request = 0;

  constructor(
    private readonly id: string,
    private readonly token: () => string | undefined,
    private readonly changed: () => void,
  ) {}

  get viewing(): boolean {
    return this.at !== undefined;
  }

  /** What to draw: the live view, or the past one (read-only) while looking back. */
  shown(current: Versioned, seat: Seat | null): Versioned {
    this.live = current.version;
    if (this.seat !== undefined && this.seat !== seat) this.leave(false); // another seat on this device took over
    this.seat = seat;
    if (this.at !== undefined && this.at >= this.live) this.leave(false);
    if (this.at !== undefined && this.past) return { version: this.past.version, view: readOnly(this.past.view) };
    return current;
  }

  step(step: Step): void {
    void this.go(stepTarget(this.loading ?? this.at, this.live, step, this.stops));
  }

  /** Back to the game as it is. */
  leave(notify = true): void {
    const was = this.at !== undefined || this.loading !== undefined;
    this.at = this.past = this.loading = this.error = undefined;
    this.request++;
    if (notify && was) this.changed();
  }

  async go(n: number): Promise<void> {
    if (n >= this.live) return this.leave();
    const request = ++this.request;
    this.loading = n;
    this.error = undefined;
    this.changed();
    try {
      const response = await fetch(viewAtUrl(this.id, this.token(), n));
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (request !== this.request) return;
      if (!response.ok) {
        const message = body && typeof body === 'object' && 'error' in body ? String(body.error) : text || response.statusText;
        throw new Error(message);
      }
      const r = body as ViewResponse;
      this.past = { version: r.version ?? n, view: r.view };
      this.at = n;
    } catch (e) {
      if (request !== this.request) return;
      this.error = `Cannot show move ${n}: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (request === this.request) {
        this.loading = undefined;
        this.changed();
      }
    }
  }
}
