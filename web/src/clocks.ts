// The game's clocks (core's view::ClockView), for games played on time: the
// talking clock of Crowded House. Each side's time left, the running one
// counting down between the server's views, and the coins of its pile drawn
// as coins, so a player sees at a glance who is short of time and who holds
// the bonus.

import { viewerSeat } from './boardmodel.ts';
import { h } from './dom.ts';
import type { ClockView, View } from './types.ts';

/** When each view (object) was first drawn: the running clock counts down from then. */
const received = new WeakMap<View, number>();

/** `m:ss`, rounding up, so a clock shows 0:00 only when it is out. */
export function clockText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

let ticking: ReturnType<typeof setInterval> | null = null;

/** Redraw every running clock on the page from its end time. */
function tick(): void {
  const now = Date.now();
  for (const el of document.querySelectorAll<HTMLElement>('.clock-time[data-ends-at]')) {
    const text = clockText(Number(el.dataset.endsAt) - now);
    if (el.textContent !== text) el.textContent = text;
    el.closest('.clock')?.classList.toggle('clock-out', text === '0:00');
  }
}

function clock(c: ClockView, start: number, mine: boolean): HTMLElement {
  const coins = c.coins ?? null;
  return h(
    `div.clock${c.running ? '.clock-running' : ''}${mine ? '.clock-mine' : ''}${c.remaining_ms === 0 ? '.clock-out' : ''}`,
    { 'data-clock': c.name, 'data-coins': coins ?? '' },
    h('span.clock-name', {}, c.name),
    h(
      'span.clock-time',
      { 'data-ends-at': c.running ? start + c.remaining_ms : null, 'data-remaining-ms': c.remaining_ms },
      clockText(c.remaining_ms),
    ),
    coins === null
      ? null
      : h(
          'span.coins',
          { title: `${coins} coin${coins === 1 ? '' : 's'} in the pile`, 'aria-label': `${coins} coins` },
          coins === 0 ? h('span.coins-none', {}, 'no coins') : Array.from({ length: coins }, () => h('span.coin', {})),
        ),
    c.note ? h('span.clock-note', {}, c.note) : null,
  );
}

/** The clocks panel, or null for a game without clocks. */
export function renderClocks(view: View): HTMLElement | null {
  const clocks = view.clocks ?? [];
  if (!clocks.length) return null;
  if (!received.has(view)) received.set(view, Date.now());
  const start = received.get(view)!;
  const seat = viewerSeat(view);
  if (ticking === null && typeof setInterval === 'function') ticking = setInterval(tick, 250);
  return h(
    'section.clocks',
    { 'aria-label': 'Clocks' },
    clocks.map(c => clock(c, start, seat !== null && c.seats.includes(seat))),
  );
}
