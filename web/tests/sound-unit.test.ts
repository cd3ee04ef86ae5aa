// Unit tests of sound at the table (issue 26): which sounds a change from
// one view to the next makes (view before -> view after -> events), and the
// switch remembered in storage. No browser, no server.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { soundEvents, soundOn, setSoundOn } from '../src/sound.ts';
import type { KeyValue } from '../src/store.ts';
import type { LogEntry, SquareView, View } from '../src/types.ts';

const ME = 0;
const THEM = 1;

function piece(square: string, colour: string): SquareView {
  return { square, piece: { colour, role: 'pawn' } };
}

function view(log: LogEntry[], squares: SquareView[], extra: Partial<View> = {}): View {
  return { variant: 'x', viewer: { seat: ME }, seats: [], log, to_act: [], actions: [], board: { files: 8, ranks: 8, squares }, ...extra };
}

const START = view([{ seat: ME, text: 'e4' }], [piece('e4', 'white'), piece('d5', 'black')]);

function memory(): KeyValue {
  const data = new Map<string, string>();
  return {
    getItem: k => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    get length() {
      return data.size;
    },
    key: i => [...data.keys()][i] ?? null,
  };
}

describe('sound events from view changes', () => {
  test('a move by the other side is a move', () => {
    const after = view([...START.log, { seat: THEM, text: 'Nf6' }], START.board!.squares);
    assert.deepEqual(soundEvents(START, after, [ME]), ['move']);
  });

  test('a move by the other side that leaves fewer pieces is a capture', () => {
    const after = view([...START.log, { seat: THEM, text: 'dxe4' }], [piece('e4', 'black')]);
    assert.deepEqual(soundEvents(START, after, [ME]), ['capture']);
  });

  test('a king newly marked in check after the other side acts is check, louder than the move', () => {
    const after = view([...START.log, { seat: THEM, text: 'Qa5+' }], START.board!.squares, { check: 'e1' });
    assert.deepEqual(soundEvents(START, after, [ME]), ['check', 'move']);
  });

  test('a line flagged as a secret choice by the other side is a secret choice, not a move', () => {
    const after = view([...START.log, { seat: THEM, text: 'plays a card face down', secret_choice: true }], START.board!.squares);
    assert.deepEqual(soundEvents(START, after, [ME]), ['secret']);
  });

  test("the player's own move, capture or check makes no sound", () => {
    const after = view([...START.log, { seat: ME, text: 'exd5+' }], [piece('d5', 'white')], { check: 'e8' });
    assert.deepEqual(soundEvents(START, after, [ME]), []);
  });

  test('seats played on this device are all the player own; a spectator hears every seat', () => {
    const after = view([...START.log, { seat: THEM, text: 'Nf6' }], START.board!.squares);
    assert.deepEqual(soundEvents(START, after, [ME, THEM]), []);
    assert.deepEqual(soundEvents(START, after, []), ['move']);
  });

  test("the game's end sounds even when the player's own move ends it", () => {
    const outcome = { winners: [ME], reason: 'checkmate' };
    const after = view([...START.log, { seat: ME, text: 'Qxf7#' }], [piece('f7', 'white')], { check: 'e8', outcome });
    assert.deepEqual(soundEvents(START, after, [ME]), ['end']);
  });

  test('lines without a seat (the referee speaking) and an unchanged view make no sound', () => {
    assert.deepEqual(soundEvents(START, START, [ME]), []);
    const after = view([...START.log, { text: 'the coin moves' }], START.board!.squares);
    assert.deepEqual(soundEvents(START, after, [ME]), []);
  });
});

describe('the sound switch', () => {
  test('is off by default, and remembered once turned on or off', () => {
    const storage = memory();
    assert.equal(soundOn(storage), false);
    setSoundOn(storage, true);
    assert.equal(soundOn(storage), true);
    setSoundOn(storage, false);
    assert.equal(soundOn(storage), false);
  });

  test('a store that cannot be read is off', () => {
    const broken = { ...memory(), getItem: () => { throw new Error('denied'); } };
    assert.equal(soundOn(broken), false);
  });
});
