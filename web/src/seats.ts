// Several people on one device: which seat's view the page shows, and when
// a privacy screen must stand between two seats.

import type { Seat, View } from './types.ts';

/**
 * The local seat whose view to show: a seat that must answer a draw offer
 * (before the offering side moves and the offer lapses), else a seat that
 * has actions now (the one shown already if it still has some), else a
 * local seat whose turn it is, else the seat shown already, else the first
 * local seat.
 */
export function seatToShow(views: ReadonlyMap<Seat, View>, local: readonly Seat[], shown: Seat | null): Seat | null {
  const pick = (ok: (seat: Seat) => boolean): Seat | undefined =>
    shown !== null && local.includes(shown) && ok(shown) ? shown : local.find(ok);
  const answering = pick(seat => views.get(seat)?.session_actions?.includes('accept draw') ?? false);
  if (answering !== undefined) return answering;
  const acting = pick(seat => (views.get(seat)?.actions.length ?? 0) > 0);
  if (acting !== undefined) return acting;
  const toAct = new Set([...views.values()].flatMap(v => v.to_act));
  const waiting = pick(seat => toAct.has(seat));
  if (waiting !== undefined) return waiting;
  if (shown !== null && local.includes(shown)) return shown;
  return local[0] ?? null;
}

/**
 * Whether the device must be handed over behind a privacy screen before
 * showing `next`: only in hidden-information games played by several people
 * on this device, and only when the seat changes (or on a fresh page, where
 * nobody has been shown anything yet).
 */
export function needsPrivacyScreen(
  hiddenInformation: boolean,
  local: readonly Seat[],
  shown: Seat | null,
  next: Seat | null,
): boolean {
  return hiddenInformation && local.length > 1 && next !== null && shown !== next;
}

/**
 * What the page shows once the seat to show is `next`:
 * - `show`: `next`'s view straight away (no secrets to keep, or no change);
 * - `hand-over`: still the view of `shown`, who has just acted, so they see
 *   what came of it (a capture attempt's "no"), with a button to pass the
 *   device on; nothing of `next` is drawn yet;
 * - `cover`: the privacy screen, on a fresh page (nobody shown yet) or
 *   once the player has asked to pass the device (`passing`).
 */
export function handOver(
  hiddenInformation: boolean,
  local: readonly Seat[],
  shown: Seat | null,
  next: Seat | null,
  passing: boolean,
): 'show' | 'hand-over' | 'cover' {
  if (!needsPrivacyScreen(hiddenInformation, local, shown, next)) return 'show';
  return shown === null || passing ? 'cover' : 'hand-over';
}
