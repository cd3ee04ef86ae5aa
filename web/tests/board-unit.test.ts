// The board features' pure parts, in node: reading and matching
// Masquerade's assignments, Cloak and Dagger's placement rules, which way
// the board faces, where a step through the moves lands, ruled-out labels.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boardOnlyActions, facing } from '../src/boardextras.ts';
import { isRuledOut, markerShape } from '../src/boardmodel.ts';
import { readOnly, stepTarget, viewAtUrl } from '../src/history.ts';
import { complete, matchingAction, pair, pairsInWords, pairsOf } from '../src/pickers/assignment.ts';
import { checkerSquares, emptySlots, isDark, matchingPlacement, problems, remaining, slotsOf } from '../src/pickers/placement.ts';
import type { Marker } from '../src/types.ts';
import { assignActions, chess960Ranks, cloakSetupView } from './board-mock.ts';

describe('masquerade assignments', () => {
  test('reads the pick the game declares, in any order and case, never the text, and refuses anything else', () => {
    const assign = (pieces: string, captures: string) => ({ text: 'x', pick: { kind: 'assignment', pieces, captures } as const });
    assert.deepEqual(pairsOf(assign('KQRBN', 'RKNBQ')), { K: 'R', Q: 'K', R: 'N', B: 'B', N: 'Q' });
    assert.deepEqual(pairsOf(assign('nbrqk', 'qbnkr')), { K: 'R', Q: 'K', R: 'N', B: 'B', N: 'Q' });
    assert.equal(pairsOf(assign('KQRB', 'RKNB')), null, 'four pairs');
    assert.equal(pairsOf(assign('KKRBN', 'RQNBK')), null, 'the king twice');
    assert.equal(pairsOf(assign('KQRBN', 'PKNBQ')), null, 'a pawn is no capture move');
    assert.equal(pairsOf(assign('KQRBN', 'RRNBQ')), null, 'a capture twice');
    assert.equal(pairsOf({ text: 'assign KR QK RN BB NQ' }), null, 'the text alone is not read');
  });

  test('pairs swap when a capture is given to a second piece; the match is the offered action', () => {
    let pairs = pair({}, 'K', 'R');
    pairs = pair(pairs, 'Q', 'K');
    assert.deepEqual(pair(pairs, 'Q', 'R'), { K: 'K', Q: 'R' }, 'the king takes the queen’s old capture');
    assert.deepEqual(pair({ K: 'R' }, 'Q', 'R'), { Q: 'R' }, 'a piece with no capture leaves the other with none');
    pairs = { K: 'R', Q: 'K', R: 'N', B: 'B', N: 'Q' };
    assert.equal(complete(pairs), true);
    assert.equal(complete({ K: 'R', Q: 'K', R: 'N', B: 'B' }), false);
    const actions = assignActions();
    assert.equal(actions.length, 120);
    assert.equal(matchingAction(actions, pairs)?.text, 'assign KR QK RN BB NQ');
    assert.equal(matchingAction(actions.slice(0, 1), pairs), undefined, 'not offered');
    assert.equal(pairsInWords(pairs), 'king captures like a rook, queen like a king, rook like a knight, bishop like a bishop, knight like a queen');
  });
});

describe('cloak and dagger placements', () => {
  test('the rule’s 960 back ranks, read from the picks the game declares', () => {
    const place = (roles: string) => ({ text: 'x', pick: { kind: 'placement', roles } as const });
    assert.equal(chess960Ranks().length, 960);
    assert.deepEqual(slotsOf(place('RNBQKBNR')), [...'RNBQKBNR']);
    assert.deepEqual(slotsOf(place('rnbqkbnr')), [...'RNBQKBNR']);
    assert.equal(slotsOf(place('RNBQKBN')), null);
    assert.equal(slotsOf(place('RNBQKBNP')), null);
    assert.equal(slotsOf({ text: 'place RNBQKBNR' }), null, 'the text alone is not read');
  });

  test('say what is missing and what breaks the rules, in words', () => {
    const squares = [...'abcdefgh'].map(f => `${f}1`);
    assert.equal(isDark('a1'), true);
    assert.equal(isDark('b1'), false);
    assert.equal(isDark('a8'), false);
    assert.deepEqual(problems(emptySlots(), squares), ['Still to place: the king, the queen, 2 rooks, 2 bishops, 2 knights.']);
    assert.deepEqual(remaining([...'RNB', null, null, null, null, null] as never), { K: 1, Q: 1, R: 1, B: 1, N: 1 });
    // Bishops on a1 and c1: both dark (the book: "bishops on squares of both colours").
    assert.deepEqual(problems([...'BNBRKRQN'] as never, squares), ['Both bishops stand on dark squares: put one on a light square.']);
    // King outside the rooks (the book: "the king between the rooks").
    assert.deepEqual(problems([...'KRBQRBNN'] as never, squares), ['The king must stand between the two rooks.']);
    assert.deepEqual(problems([...'RNBQKBNR'] as never, squares), []);
    const actions = cloakSetupView().actions;
    assert.equal(matchingPlacement(actions, [...'RNBQKBNR'] as never)?.text, 'place RNBQKBNR');
    assert.equal(matchingPlacement(actions, [...'BNBRKRQN'] as never), undefined);
  });

  test('the checkers are found where the view labels them', () => {
    const view = cloakSetupView();
    assert.deepEqual(checkerSquares(view, 'white'), [...'abcdefgh'].map(f => `${f}1`));
    assert.deepEqual(checkerSquares(view, 'black'), [...'abcdefgh'].map(f => `${f}8`));
  });
});

describe('facing, stepping, ruled out', () => {
  test('the board faces the viewer, the first local seat when not turning, and flips', () => {
    assert.equal(facing('black', 'white', { flipped: false, turnEach: true }), 'black');
    assert.equal(facing('black', 'white', { flipped: false, turnEach: false }), 'white');
    assert.equal(facing('black', 'white', { flipped: true, turnEach: false }), 'black');
    assert.equal(facing('white', undefined, { flipped: true, turnEach: false }), 'black');
  });

  test('steps land inside 0..live', () => {
    assert.equal(stepTarget(undefined, 7, 'back'), 6);
    assert.equal(stepTarget(0, 7, 'back'), 0);
    assert.equal(stepTarget(6, 7, 'forward'), 7);
    assert.equal(stepTarget(7, 7, 'forward'), 7);
    assert.equal(stepTarget(3, 7, 'first'), 0);
    assert.equal(stepTarget(3, 7, 'last'), 7);
    assert.equal(viewAtUrl('g 1', 'a&b', 3), '/api/games/g%201/view?token=a%26b&at=3');
    assert.equal(viewAtUrl('g1', undefined, 0), '/api/games/g1/view?at=0');
    assert.deepEqual(readOnly({ ...cloakSetupView() }).actions, []);
  });

  test('ruled-out labels, as the game writes them', () => {
    assert.equal(isRuledOut({ text: 'guess c8 N', label: 'Guess: the checker on c8 is a knight (already ruled out)' }), true);
    assert.equal(isRuledOut({ text: 'guess c8 N', label: 'Guess: the checker on c8 is a knight (ruled out)' }), true);
    assert.equal(isRuledOut({ text: 'guess c8 N', label: 'Guess: the checker on c8 is a knight (gives up your bonus move)' }), false);
    assert.equal(isRuledOut({ text: 'guess c8 N' }), false);
  });

  test('a badge sits in the corner the game declares: top right, clear of the file letters (bottom right)', () => {
    const burial: Marker = { kind: 'burial', text: 'P', draw: [{ shape: 'badge', corner: 'top_right', fill: 'black', text: 'P' }] };
    const html = (markerShape('c1', burial).customSvg as { html: string }).html;
    assert.match(html, /cx="82" cy="18"/);
    assert.match(html, /fill="#262421"/, 'in the colour the game names');
  });

  test('a marker is drawn from its declared layers, not its kind, bottom layer first', () => {
    const frame = { shape: 'frame', fill: '#8d6e63', rim: '#5d4037' } as const;
    const points = { shape: 'badge', corner: 'top_right', fill: '#ffb300', text: '3' } as const;
    const html = markerShape('e4', { kind: 'anything', draw: [frame, points] }).customSvg!.html;
    assert.match(html, /^<g class="marker marker-anything"><rect [^>]*stroke="#5d4037"[^>]*\/><circle cx="82" cy="18"/);
    const plain = markerShape('e4', { kind: 'anything', text: '★' }).customSvg!.html;
    assert.match(plain, /cx="18" cy="18".*★/, 'no layers: a badge of its text, top left');
    const stack = markerShape('g4', { kind: 'x', draw: [{ shape: 'stack', fill: 'red', text: '3' }] }, false).customSvg!.html;
    assert.match(stack, /<ellipse cx="50"/, 'a stack on an empty square stands in the middle');
  });
});

describe('split-brain on the board', () => {
  const circles = (squares: string[]) => squares.map(sq => ({ text: `circle ${sq}`, square: sq, label: `Circle ${sq}` }));
  const grid = [...'bcdefg'].flatMap(f => [...'234567'].map(r => f + r));
  test('36 circles are clicked on the board, not listed; a few square actions stay buttons', () => {
    assert.equal(boardOnlyActions(circles(grid)).length, 36);
    assert.equal(boardOnlyActions(circles(grid.slice(0, 3))).length, 0, 'ties to correct are few: buttons too');
    const guesses = grid.map(sq => ({ text: `guess ${sq} knight`, square: sq }));
    assert.equal(boardOnlyActions(guesses).length, 0, 'an action that says more than its square keeps its list');
  });
  test('the checker and a circle are drawn as pictures, not letters', () => {
    const disc = { shape: 'disc', fill: 'red', text: 'king-side chooses' } as const;
    const checker = markerShape('h8', { kind: 'checker', colour: 'red', text: 'king-side chooses', draw: [disc] }, false);
    assert.match(checker.customSvg!.html, /marker-checker/);
    assert.match(checker.customSvg!.html, /king-side<\/text>.*>chooses</);
    const ring = { shape: 'ring', colour: 'blue', dashed: true } as const;
    const circle = markerShape('e4', { kind: 'circle', colour: 'blue', text: 'target', draw: [ring] }, false);
    assert.match(circle.customSvg!.html, /stroke-dasharray/);
  });
});
