// Unit tests of the pure parts added for issue 8 (the player's view of what
// just happened, table actions, the end of a game, the hand-over on a shared
// device, "Your games", plurals). No browser, no server.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gameLine, newGamePath, readPreset, seatChoices } from '../src/lobby.ts';
import { handOver, seatToShow } from '../src/seats.ts';
import { type KeyValue, loadGame, saveGame } from '../src/store.ts';
import type { GameInfo, View } from '../src/types.ts';
import { ago, drawOfferText, newsLine, nextNews, outcomeWords, plural, refusalText, sessionLabel } from '../src/view.ts';

const SEATS = [
  { name: 'White', colour: 'white' },
  { name: 'Black', colour: 'black' },
];

function view(partial: Partial<View>): View {
  return { variant: 'demo', viewer: { seat: 0 }, seats: SEATS, log: [], to_act: [0], actions: [], ...partial };
}

function info(partial: Partial<GameInfo>): GameInfo {
  return {
    id: 'g1',
    variant: 'chess',
    title: 'Chess',
    seats: [
      { seat: 0, name: 'White', kind: 'human', joined: true },
      { seat: 1, name: 'Black', kind: 'computer:level6' },
    ],
    over: false,
    outcome: null,
    to_act: [0],
    version: 1,
    created: 1_000_000,
    updated: 1_000_000,
    ...partial,
  };
}

class MemoryStorage implements KeyValue {
  private readonly map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  get length() {
    return this.map.size;
  }
  key = (i: number) => [...this.map.keys()][i] ?? null;
}

describe('plurals and times in words (issue 8: "1 moves")', () => {
  test('a count is singular only for one', () => {
    assert.equal(plural(1, 'move'), '1 move');
    assert.equal(plural(0, 'move'), '0 moves');
    assert.equal(plural(2, 'move'), '2 moves');
    assert.equal(plural(1, 'earlier entry', 'earlier entries'), '1 earlier entry');
    assert.equal(plural(3, 'earlier entry', 'earlier entries'), '3 earlier entries');
  });

  test('how long ago, rounded down to the largest unit', () => {
    assert.equal(ago(5), 'just now');
    assert.equal(ago(-20), 'just now', 'a clock a little ahead of the server');
    assert.equal(ago(60), '1 minute ago');
    assert.equal(ago(119), '1 minute ago');
    assert.equal(ago(120), '2 minutes ago');
    assert.equal(ago(3600), '1 hour ago');
    assert.equal(ago(3 * 86400 + 5), '3 days ago');
    assert.equal(ago(8 * 86400), '1 week ago');
    assert.equal(ago(400 * 86400), '1 year ago');
  });
});

describe('what just happened', () => {
  const log = [
    { seat: 0, text: 'e4' },
    { seat: 1, text: 'e5' },
    { seat: 0, text: 'Nb1xc3: no' },
  ];

  test('the entries since the previous look; the same log keeps the news; a first look shows the newest entry', () => {
    const first = nextNews(undefined, log.slice(0, 1));
    assert.deepEqual(first, { entries: [log[0]], upTo: 1 });
    const second = nextNews(first, log);
    assert.deepEqual(second, { entries: log.slice(1), upTo: 3 });
    assert.equal(nextNews(second, log), second, 'a redraw without new entries keeps the news');
    assert.deepEqual(nextNews(second, []), { entries: [], upTo: 0 }, 'a shorter log starts afresh');
    assert.deepEqual(nextNews({ entries: [], upTo: 3 }, log), { entries: [], upTo: 3 }, 'nothing new since a stored look');
    assert.deepEqual(nextNews(undefined, []), { entries: [], upTo: 0 });
  });

  test('in words: "You" for the viewer, the seat name for others, the text alone when it names its seat', () => {
    const v = view({});
    assert.equal(newsLine(v, { seat: 0, text: 'Nb1xc3: no' }), 'You: Nb1xc3: no');
    assert.equal(newsLine(v, { seat: 1, text: 'e5' }), 'Black: e5');
    assert.equal(newsLine(v, { seat: 1, text: 'Black guessed wrong' }), 'Black guessed wrong');
    assert.equal(newsLine(v, { seat: 0, text: 'White resigns.' }), 'White resigns.', 'not "You: White resigns."');
    assert.equal(newsLine(v, { seat: 1, text: 'Blackmail' }), 'Black: Blackmail', 'a whole word only');
    assert.equal(newsLine(v, { text: 'The game begins' }), 'The game begins');
    assert.equal(newsLine(view({ viewer: 'spectator' }), { seat: 0, text: 'e4' }), 'White: e4');
  });

  test('a refused action is named by its label, not its raw text', () => {
    const assign = { text: 'assign KR QK', label: 'King as rook, queen as king' };
    assert.equal(
      refusalText('illegal action "assign KR QK": the king is already taken', assign),
      'illegal action "King as rook, queen as king": the king is already taken',
    );
    assert.equal(refusalText('illegal action "e2e5"', { text: 'e2e5', from: 'e2', to: 'e5' }), 'illegal action "e2e5"', 'no label: as written');
    assert.equal(refusalText('not your turn', assign), 'not your turn');
  });

  test('a stored game keeps how much of the log each seat has seen, and its options', () => {
    const storage = new MemoryStorage();
    saveGame(storage, 'g1', { tokens: { 0: 't' }, invites: [], seen: { 0: 4 }, options: { players: 3 } });
    const game = loadGame(storage, 'g1');
    assert.deepEqual(game.seen, { 0: 4 });
    assert.deepEqual(game.options, { players: 3 });
    storage.setItem('chesskit:game:g2', JSON.stringify({ tokens: {}, seen: { 0: -1, 1: 'x', 2: 2 }, options: [1] }));
    assert.deepEqual(loadGame(storage, 'g2').seen, { 2: 2 }, 'only whole counts');
    assert.equal(loadGame(storage, 'g2').options, undefined);
  });
});

describe('table actions (docs/api.md: resign, draw offers, abort)', () => {
  test('labels in words', () => {
    assert.deepEqual(
      ['resign', 'offer draw', 'accept draw', 'decline draw', 'abort'].map(sessionLabel),
      ['Resign', 'Offer a draw', 'Accept the draw', 'Decline the draw', 'Abort the game'],
    );
  });

  test('an open draw offer, as each side reads it', () => {
    assert.equal(drawOfferText(view({})), null);
    assert.equal(drawOfferText(view({ draw_offer: 0 })), 'You offered a draw: waiting for the answer.');
    assert.equal(
      drawOfferText(view({ viewer: { seat: 1 }, draw_offer: 0, session_actions: ['resign', 'accept draw', 'decline draw'] })),
      'White offers a draw. Accept or decline?',
    );
    assert.equal(drawOfferText(view({ viewer: 'spectator', draw_offer: 1 })), 'Black offers a draw.');
    assert.equal(drawOfferText(view({ draw_offer: 1, outcome: { winners: [], reason: 'draw agreed' } })), null);
  });

  test('the outcome reasons of the contract read as words', () => {
    const names = ['White', 'Black'];
    assert.equal(outcomeWords(names, { winners: [1], reason: 'resignation' }), 'Black wins (resignation)');
    assert.equal(outcomeWords(names, { winners: [], reason: 'draw agreed' }), 'Draw agreed');
    assert.equal(outcomeWords(names, { winners: [], reason: 'aborted' }), 'Game aborted: no winner');
    assert.equal(outcomeWords(names, { winners: [], reason: 'stalemate' }), 'Draw (stalemate)');
    assert.equal(
      outcomeWords(['Player'], { winners: [], reason: 'all 16 negative cards spent', scores: [-16] }),
      'Player lost (all 16 negative cards spent) · scores: Player -16',
      'a solitaire with no winner is lost, not drawn',
    );
  });
});

describe('the hand-over on a shared device', () => {
  test('a draw offer goes to the other seat on this device at once, before the offering side moves on', () => {
    const white = view({ actions: [{ text: 'e2e4', from: 'e2', to: 'e4' }], draw_offer: 0, session_actions: ['resign'] });
    const black = view({ viewer: { seat: 1 }, draw_offer: 0, session_actions: ['resign', 'accept draw', 'decline draw'] });
    assert.equal(seatToShow(new Map([[0, white], [1, black]]), [0, 1], 0), 1);
    const declined = view({ viewer: { seat: 1 }, session_actions: ['resign'] });
    assert.equal(seatToShow(new Map([[0, white], [1, declined]]), [0, 1], 1), 0, 'then back to the side to move');
  });

  test('the player who acted sees the result first; the cover comes when they pass the device', () => {
    assert.equal(handOver(true, [0, 1], 0, 1, false), 'hand-over', 'White still sees their own view');
    assert.equal(handOver(true, [0, 1], 0, 1, true), 'cover', 'White pressed "Pass to Black"');
    assert.equal(handOver(true, [0, 1], null, 0, false), 'cover', 'a fresh page shows nobody before the cover');
    assert.equal(handOver(true, [0, 1], 0, 0, false), 'show', 'the same seat goes on');
    assert.equal(handOver(false, [0, 1], 0, 1, false), 'show', 'no secrets: straight to the next seat');
    assert.equal(handOver(true, [0], 0, 0, false), 'show', 'one seat on this device');
  });
});

describe('the end of a game: new game (the rematch is the server\'s: crates/server/src/rematch.rs)', () => {
  test('"New game" fills in the lobby with the same variant, options and seats', () => {
    const montecarlo = info({ seats: [{ seat: 0, name: 'White', kind: 'human' }, { seat: 1, name: 'Black', kind: 'computer:level3' }] });
    assert.deepEqual(seatChoices(montecarlo, [0]), ['me', 'computer:level4'], 'a level the lobby does not offer: the default');
    const path = newGamePath(info({ variant: 'golf' }), [0], { players: 3, max_nodes: 5000 });
    const preset = readPreset(new URL(path, 'http://x').search);
    assert.deepEqual(preset, { variant: 'golf', options: { players: 3, max_nodes: 5000 }, seats: ['me', 'computer:level6'] });
    assert.deepEqual(seatChoices(info({ seats: [{ seat: 0, name: 'White', kind: 'human' }, { seat: 1, name: 'Black', kind: 'human' }] }), [0, 1]), [
      'me',
      'local',
    ]);
    assert.deepEqual(seatChoices(info({ seats: [{ seat: 0, name: 'White', kind: 'open' }, { seat: 1, name: 'Black', kind: 'computer' }] }), []), [
      'me',
      'computer:level2',
    ]);
    assert.equal(readPreset(''), null);
    assert.deepEqual(readPreset('?variant=chess&options=%7Bbad&seats=me,nobody'), { variant: 'chess', options: {}, seats: [] });
  });
});

describe('"Your games" in words', () => {
  const now = 1_000_000 + 3 * 3600;
  const mine = { tokens: { 0: 't' }, invites: [] };

  test('whose turn, against whom, and when', () => {
    assert.deepEqual(gameLine(info({ updated: now - 120 }), mine, now), {
      title: 'Chess',
      opponents: 'against Black (computer, hard)',
      turn: 'Your turn',
      state: 'yours',
      when: 'last move 2 minutes ago · started 3 hours ago',
    });
    const waiting = gameLine(
      info({ seats: [{ seat: 0, name: 'White', kind: 'human' }, { seat: 1, name: 'Black', kind: 'open', joined: false }], to_act: [1] }),
      mine,
      now,
    );
    assert.equal(waiting.opponents, 'against Black (invited friend, not come yet)');
    assert.equal(waiting.turn, 'Waiting for Black');
    assert.equal(waiting.state, 'theirs');
    assert.equal(waiting.when, 'started 3 hours ago', 'without `updated` (older servers): the creation time');
  });

  test('a finished game says its result; a shared device names its seats', () => {
    const over = gameLine(info({ over: true, to_act: [], outcome: { winners: [1], reason: 'checkmate' }, updated: now - 86400 }), mine, now);
    assert.equal(over.turn, 'Over: Black wins (checkmate)');
    assert.equal(over.state, 'over');
    const shared = gameLine(
      info({ seats: [{ seat: 0, name: 'White', kind: 'human' }, { seat: 1, name: 'Black', kind: 'human' }], to_act: [1] }),
      { tokens: { 0: 'a', 1: 'b' }, invites: [] },
      now,
    );
    assert.equal(shared.opponents, 'White and Black on this device');
    assert.equal(shared.turn, 'Black to play');
    assert.equal(gameLine(info({}), { tokens: {}, invites: [] }, now).opponents, 'watching White and Black');
    assert.equal(gameLine(info({ created: 0, updated: 0 }), mine, now).when, '', 'no date rather than "56 years ago"');
  });
});
