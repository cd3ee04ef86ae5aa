// Sound at the table: short quiet tones for what the other side did (a
// move, a capture, check, a secret choice) and for the game's end. The
// events come from the views the page already receives, read the same way
// for every game: new log lines by other seats, the pieces on the board,
// the view's `check`, a line's `secret_choice` flag, the `outcome`. The
// tones are made with the Web Audio API, so there are no sound files.
// Off by default; the switch is remembered in localStorage.

import { h } from './dom.ts';
import type { Seat, View } from './types.ts';
import type { KeyValue } from './store.ts';

/** What a sound tells, loudest first (see [`SOUND_EVENTS`]). */
export type SoundEvent = 'end' | 'check' | 'capture' | 'secret' | 'move';

/** Every event, in the order one wins over another when several happen in one change. */
export const SOUND_EVENTS: readonly SoundEvent[] = ['end', 'check', 'capture', 'secret', 'move'];

const SWITCH_KEY = 'chesskit:sound';

/** Whether the player turned sound on (off unless they did, and when the store cannot be read). */
export function soundOn(storage: KeyValue): boolean {
  try {
    return storage.getItem(SWITCH_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Remember the switch for the next visit (a full or private store only forgets it). */
export function setSoundOn(storage: KeyValue, on: boolean): void {
  try {
    storage.setItem(SWITCH_KEY, on ? 'on' : 'off');
  } catch {
    // The switch still holds for this page.
  }
}

/**
 * What happened between two views of one feed, as the sounds to play,
 * loudest first. `own` are the seats played on this device: their actions
 * make no sound (the player knows what they did) except the game's end.
 * A capture is a move by another seat after which the board holds fewer
 * pieces; check is a newly marked king, sounded only when another seat
 * acted (a check the player gives is their own move).
 */
export function soundEvents(before: View, after: View, own: readonly Seat[]): SoundEvent[] {
  const events = new Set<SoundEvent>();
  if (!before.outcome && after.outcome) events.add('end');
  const theirs = after.log.slice(before.log.length).filter(e => e.seat !== undefined && !own.includes(e.seat));
  if (theirs.length) {
    const chosen = theirs.filter(e => e.secret_choice);
    if (chosen.length) events.add('secret');
    if (chosen.length < theirs.length) events.add(pieceCount(after) < pieceCount(before) ? 'capture' : 'move');
    if (after.check && after.check !== before.check) events.add('check');
  }
  return SOUND_EVENTS.filter(e => events.has(e));
}

function pieceCount(view: View): number {
  return view.board?.squares.filter(s => s.piece).length ?? 0;
}

/** One note of a tone: its pitch, when it starts and how long it sounds (seconds). */
interface Note {
  hz: number;
  at: number;
  length: number;
}

/** A tone for each event, told apart by shape: one tap, a drop, a rising pair, a low hum, a chord. */
const TONES: Record<SoundEvent, { wave: OscillatorType; notes: Note[] }> = {
  move: { wave: 'sine', notes: [{ hz: 660, at: 0, length: 0.07 }] },
  capture: {
    wave: 'triangle',
    notes: [
      { hz: 520, at: 0, length: 0.07 },
      { hz: 350, at: 0.07, length: 0.1 },
    ],
  },
  check: {
    wave: 'triangle',
    notes: [
      { hz: 880, at: 0, length: 0.08 },
      { hz: 1175, at: 0.1, length: 0.1 },
    ],
  },
  secret: { wave: 'sine', notes: [{ hz: 330, at: 0, length: 0.25 }] },
  end: {
    wave: 'sine',
    notes: [
      { hz: 523, at: 0, length: 0.14 },
      { hz: 659, at: 0.12, length: 0.14 },
      { hz: 784, at: 0.24, length: 0.3 },
    ],
  },
};

/** Quiet: a tenth of full scale at the peak. */
const PEAK = 0.1;

declare global {
  interface Window {
    /** When a page defines it (a test does), the name of each sound played is pushed onto it. */
    __chesskitSounds?: string[];
  }
}

/** The page's sound: the remembered switch, and the tones it plays while on. */
export class Sound {
  private context?: AudioContext;
  private on: boolean;

  constructor(private readonly storage: KeyValue) {
    this.on = soundOn(storage);
  }

  get enabled(): boolean {
    return this.on;
  }

  /** Turn sound on or off, and remember it. Called from a click, which lets the browser start audio. */
  set enabled(on: boolean) {
    this.on = on;
    setSoundOn(this.storage, on);
    if (on) this.wake();
  }

  /** Play the loudest of `events`, if sound is on: one tone per change keeps the table quiet. */
  play(events: readonly SoundEvent[]): void {
    const event = events[0];
    if (!this.on || !event) return;
    window.__chesskitSounds?.push(event);
    const context = this.wake();
    if (!context) return;
    const { wave, notes } = TONES[event];
    const start = context.currentTime + 0.01;
    for (const note of notes) this.note(context, wave, note, start);
  }

  /** The audio context, made on first use and resumed if the browser suspended it (no audio device: none). */
  private wake(): AudioContext | undefined {
    try {
      this.context ??= new AudioContext();
      if (this.context.state === 'suspended') void this.context.resume().catch(() => undefined);
      return this.context;
    } catch {
      return undefined;
    }
  }

  /** One note with a quick rise and fall, so it neither clicks nor rings. */
  private note(context: AudioContext, wave: OscillatorType, { hz, at, length }: Note, start: number): void {
    const oscillator = new OscillatorNode(context, { type: wave, frequency: hz });
    const gain = new GainNode(context, { gain: 0 });
    const t = start + at;
    gain.gain.setValueAtTime(0, t);
    gain.gain.linearRampToValueAtTime(PEAK, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(t);
    oscillator.stop(t + length + 0.02);
  }
}

/** The header's switch: "Sound: off" / "Sound: on", pressed while on. */
export function soundSwitch(sound: Sound): HTMLButtonElement {
  const label = () => `Sound: ${sound.enabled ? 'on' : 'off'}`;
  const button = h('button.sound-switch', { type: 'button', 'aria-pressed': String(sound.enabled) }, label());
  button.addEventListener('click', () => {
    sound.enabled = !sound.enabled;
    button.textContent = label();
    button.setAttribute('aria-pressed', String(sound.enabled));
  });
  return button;
}
