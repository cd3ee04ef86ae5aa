// Unit tests of cards named in words (issue 26, "cards as cards,
// everywhere"): which words are card codes, and an action's text with its
// cards as faces. No browser, no server.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cardCodesIn } from '../src/cards.ts';
import { actionLabel } from '../src/view.ts';

describe('card codes in words', () => {
  test('the codes the games write are found: "Play the 2d", "(8h)", "plays the 4s", "draws 10h qs"', () => {
    assert.deepEqual(cardCodesIn('Play the 2d'), ['2d']);
    assert.deepEqual(cardCodesIn('Predict: knight (8h)'), ['8h']);
    assert.deepEqual(cardCodesIn('White plays the 4s (black pawn)'), ['4s']);
    assert.deepEqual(cardCodesIn('Add the black bishop (9c) on the top row'), ['9c']);
    assert.deepEqual(cardCodesIn('Hole 1: Ann draws 10h qs (white rook, black queen)'), ['10h', 'qs']);
    assert.deepEqual(cardCodesIn('kh, 6d and 7c.'), ['kh', '6d', '7c']);
  });

  test('nothing else is a card: words, squares, moves, upper case, ranks outside the deck', () => {
    for (const words of [
      'White plays as the predictor',
      'bury c6',
      'h2h4',
      'Qh5+',
      'Nc3',
      '9h5',
      'e2e4 9H',
      'the jc and the ad',
      '11s',
      '1h',
      'KQkq - 0 1',
      'a 4-move line',
    ]) {
      assert.deepEqual(cardCodesIn(words), [], words);
    }
  });

  test('a picker shows the card faces of a label: "Predict: knight (8♥)"', () => {
    assert.equal(actionLabel({ text: 'predict knight', label: 'Predict: knight (8h)', card: '8h' }), 'Predict: knight (8♥)');
    assert.equal(actionLabel({ text: 'play 10s' }), 'play 10♠');
    assert.equal(actionLabel({ text: 'draw', label: 'Draws 10h qs' }), 'Draws 10♥ Q♠');
    assert.equal(actionLabel({ text: 'bury c6' }), 'bury c6');
  });
});
