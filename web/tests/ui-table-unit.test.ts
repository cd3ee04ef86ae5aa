// Unit tests of the pure parts added for issue 26 (the table a player
// sees): why the game ended, moves counted as moves, the lobby's groups and
// option labels, the pieces giving a mating check marked. No browser, no
// server; the browser checks are ui-table.test.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boardModel } from '../src/boardmodel.ts';
import { moveNumber, moveStops, stepTarget } from '../src/history.ts';
import { groupByPlayers, optionLabel, playersHeading, playersNote } from '../src/lobby.ts';
import type { LogEntry, OptionSpec, VariantInfo, View } from '../src/types.ts';
import { outcomeReason } from '../src/view.ts';

const SEATS = [
  { name: 'White', colour: 'white' },
  { name: 'Black', colour: 'black' },
];

function view(partial: Partial<View>): View {
  return { variant: 'demo', viewer: { seat: 0 }, seats: SEATS, log: [], to_act: [], actions: [], ...partial };
}

const FOOLS_MATE: Partial<View> = {
  outcome: { winners: [1], reason: 'checkmate' },
  check: 'e1',
  checkers: ['h4'],
  board: {
    files: 8,
    ranks: 8,
    squares: [
      { square: 'e1', piece: { colour: 'white', role: 'king' } },
      { square: 'h4', piece: { colour: 'black', role: 'queen' } },
    ],
  },
};

describe('the end says why', () => {
  test('a checkmate names the king and what attacks it, from the view alone', () => {
    assert.equal(
      outcomeReason(view(FOOLS_MATE)),
      'Checkmate: the white king on e1 is attacked by the black queen on h4, and no move gets it out of check.',
    );
    const unnamed = view({ outcome: { winners: [1], reason: 'checkmate' } });
    assert.equal(outcomeReason(unnamed), 'Checkmate: White’s king is in check, and no move gets it out of check.');
  });

  test('the reasons many games share are explained; a game’s own words are said as they are', () => {
    const end = (reason: string, winners: number[] = []) => outcomeReason(view({ outcome: { winners, reason } }));
    assert.match(end('stalemate')!, /^Stalemate: the side to move has no legal move/);
    assert.equal(end('resignation', [0]), 'Black resigned.');
    assert.equal(end('king captured', [1]), 'White’s king was captured.');
    assert.equal(end('no piece can move'), 'No piece can move.');
    assert.equal(outcomeReason(view({})), null, 'not over: nothing to explain');
  });

  test('the board marks the pieces giving the mating check, with an arrow to the king, only once the game is over', () => {
    const over = boardModel(view(FOOLS_MATE));
    assert.equal(over.classes.get('h4'), 'checker');
    assert.equal(over.classes.get('e1'), 'check');
    assert.ok(over.shapes.some(s => s.orig === 'h4' && s.dest === 'e1'));
    const running = boardModel(view({ ...FOOLS_MATE, outcome: undefined }));
    assert.equal(running.classes.get('h4'), undefined, 'a check in play marks the king alone');
  });
});

describe('moves counted as moves', () => {
  // e4 (action 1), e5 (2), a draw offered (3) and declined (4): no lines; Nf3 (5), with a note.
  const log: LogEntry[] = [
    { seat: 0, text: 'e4', at: 1 },
    { seat: 1, text: 'e5', at: 2 },
    { seat: 0, text: 'Nf3', at: 5 },
    { text: 'a note of the same action', at: 5 },
  ];

  test('steps stop after each move, passing over table actions', () => {
    const stops = moveStops(log);
    assert.deepEqual(stops, [0, 1, 2, 5]);
    assert.equal(stepTarget(undefined, 5, 'back', stops), 2, 'one back from the game: after e5');
    assert.equal(stepTarget(2, 5, 'forward', stops), 5, 'and forward again: the game as it is');
    assert.equal(stepTarget(4, 5, 'back', stops), 2);
    assert.equal(stepTarget(1, 5, 'back', stops), 0);
    assert.equal(stepTarget(3, 7, 'back'), 2, 'a log that does not say where its lines stand: one action');
  });

  test('the counter counts the lines with a seat, once per action', () => {
    assert.equal(moveNumber(log, 5), 3);
    assert.equal(moveNumber(log, 4), 2, 'the draw offer is no move');
    assert.equal(moveNumber(log, 0), 0);
    assert.equal(moveNumber([{ seat: 0, text: 'e4' }], 4), 4, 'without places: the actions');
  });
});

describe('the lobby', () => {
  const variant = (name: string, seats: number, experimental = false, extra: Partial<VariantInfo> = {}): VariantInfo => ({
    name,
    title: name,
    seats: Array.from({ length: seats }, (_, i) => `Seat ${i + 1}`),
    options: [],
    experimental,
    hidden_information: false,
    pgn: false,
    summary: '',
    min_players: seats,
    max_players: seats,
    analysis: false,
    ...extra,
  });

  test('games grouped by how many play, fewest first, the experimental ones last in each group', () => {
    const groups = groupByPlayers([variant('four', 4), variant('new', 2, true), variant('chess', 2), variant('solo', 1)]);
    assert.deepEqual(
      groups.map(([n, g]) => [n, g.map(v => v.name)]),
      [
        [1, ['solo']],
        [2, ['chess', 'new']],
        [4, ['four']],
      ],
    );
    assert.deepEqual([1, 2, 4].map(playersHeading), ['Solitaires: one player', 'Two players', 'Four players']);
    assert.equal(playersNote(variant('golf', 2, false, { min_players: 1, max_players: 8 })), '1 to 8 players');
    assert.equal(playersNote(variant('chess', 2, false, { min_players: 2, max_players: 2 })), null);
  });

  test('an option is labelled in the game’s words, else by its name without underscores', () => {
    const spec = (label?: string): OptionSpec => ({ name: 'max_cards', type: 'int', min: 2, max: 16, default: 10, help: '', label });
    assert.equal(optionLabel(spec('Most cards dealt for a hole')), 'Most cards dealt for a hole');
    assert.equal(optionLabel(spec()), 'Max cards');
  });
});
