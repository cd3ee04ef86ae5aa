// The board's pickers in Chromium against the stand-in server (tests/mock.ts,
// tests/board-mock.ts): Masquerade's assignment as a picture, Cloak and
// Dagger's placement on the board, its uncloaking asked first, its bonus
// button and greyed guesses. (Picking up, flipping the board, stepping back
// through the moves and the coordinates: board-moves.test.ts.)
// Screenshots (desktop 1366x800 and phone 390x844) go to
// web/test-results/board-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { View } from '../src/types.ts';
import { DESKTOP, PHONE, chess960Ranks, cloakSetupView, cloakTurnView, masqueradeSetupView, openBoardPage } from './board-mock.ts';
import { clickMove, clickSquare, drawnCount, browserOfFile, pieceAt, screenshot, settledPieceAt, squareCenter } from './harness.ts';

const chromium = browserOfFile();

const open = (view: View, size = DESKTOP, hidden = true) => openBoardPage(chromium.browser, view, size, hidden);

describe('masquerade: the assignment as a picture', () => {
  test('pairs pieces with captures by clicks and a drag, shows the whole assignment, sends the matching action', async () => {
    const { page, server, context } = await open(masqueradeSetupView());
    const picker = page.locator('.assignment-picker:not(.example-picker)');
    await picker.waitFor();
    assert.equal(await page.locator('.action-picker[data-group="assign"]').count(), 0, 'no list of 120 codes');
    assert.equal(await picker.locator('.mq-piece').count(), 5);
    assert.equal(await picker.locator('.mq-capture').count(), 5);
    assert.equal(await picker.locator('.mq-piece piece.black').count(), 5, "the opponent's pieces, in their colour");
    assert.equal(await page.locator('.assignment-picker:not(.example-picker) .assign-confirm').isDisabled(), true, 'nothing paired yet');
    await screenshot(page, 'board-masquerade-empty-desktop');

    // Piece first, then capture.
    await picker.locator('.mq-piece[data-piece="K"]').click();
    assert.equal(await picker.locator('.mq-piece[data-piece="K"]').getAttribute('aria-pressed'), 'true');
    await picker.locator('.mq-capture[data-capture="R"]').click();
    // Capture first, then piece.
    await picker.locator('.mq-capture[data-capture="K"]').click();
    await picker.locator('.mq-piece[data-piece="Q"]').click();
    // A drag of a capture onto a piece.
    await picker.locator('.mq-capture[data-capture="N"]').dragTo(picker.locator('.mq-piece[data-piece="R"]'));
    assert.equal(await picker.locator('.mq-piece[data-piece="R"] .mq-slot').getAttribute('data-capture'), 'N', 'the drag paired the rook with the knight’s capture');
    await picker.locator('.mq-piece[data-piece="B"]').click();
    await picker.locator('.mq-capture[data-capture="B"]').click();
    assert.equal(await page.locator('.assignment-picker:not(.example-picker) .assign-confirm').isDisabled(), true, 'the knight has no capture yet');
    assert.match((await picker.locator('.mq-summary').textContent()) ?? '', /Still to pair: knight/);
    await picker.locator('.mq-piece[data-piece="N"]').click();
    await picker.locator('.mq-capture[data-capture="Q"]').click();

    assert.equal(
      await picker.locator('.mq-summary').textContent(),
      'Black’s king captures like a rook, queen like a king, rook like a knight, bishop like a bishop, knight like a queen.',
    );
    assert.deepEqual(await picker.locator('.mq-capture .mq-cap-used').allTextContents(), ['→ queen', '→ knight', '→ king', '→ bishop', '→ rook']);
    await screenshot(page, 'board-masquerade-paired-desktop');

    // Giving a used capture to another piece swaps the two.
    await picker.locator('.mq-piece[data-piece="K"]').click();
    await picker.locator('.mq-capture[data-capture="K"]').click();
    assert.equal(await picker.locator('.mq-piece[data-piece="Q"] .mq-slot').getAttribute('data-capture'), 'R', 'the queen took the king’s old capture');
    await picker.locator('.mq-piece[data-piece="Q"]').click();
    await picker.locator('.mq-capture[data-capture="K"]').click(); // and back

    await page.locator('.assignment-picker:not(.example-picker) .assign-confirm').click();
    await page.locator('.assignment-picker:not(.example-picker)').waitFor({ state: 'detached' });
    assert.deepEqual(server.posted, [{ token: 't0', action: 'assign KR QK RN BB NQ' }]);
    await context.close();
  });

  test('fits a phone', async () => {
    const { page, context } = await open(masqueradeSetupView(), PHONE);
    await page.locator('.assignment-picker:not(.example-picker)').waitFor();
    await page.locator('.assignment-picker:not(.example-picker) .assign-random').click();
    assert.equal(await page.locator('.assignment-picker:not(.example-picker) .assign-confirm').isDisabled(), false, 'a random assignment is a whole one');
    await page.locator('.assignment-picker:not(.example-picker)').scrollIntoViewIfNeeded();
    await screenshot(page, 'board-masquerade-phone');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await context.close();
  });
});

describe('cloak and dagger: the placement on the board', () => {
  test('puts identities on the numbered checkers, says what breaks the rules, sends the placement', async () => {
    assert.equal(chess960Ranks().length, 960, 'the stand-in offers the 960 placements');
    const { page, server, context } = await open(cloakSetupView());
    const picker = page.locator('.placement-picker');
    await picker.waitFor();
    assert.equal(await page.locator('.action-picker[data-group="place"]').count(), 0, 'no list of 960 codes');
    assert.equal(await drawnCount(page, '#board square.slot', 8), 8, 'the eight checkers are the places to click');
    assert.equal(await pieceAt(page, 'a1'), 'white hidden');
    await screenshot(page, 'board-placement-empty-desktop');

    // Choose a piece, then click a checker: a rook on checker 1 (a1).
    await picker.locator('.pl-kind[data-kind="R"]').click();
    await clickSquare(page, 'a1');
    assert.equal(await settledPieceAt(page, 'a1', 'white rook'), 'white rook');
    assert.equal(await picker.locator('.pl-kind[data-kind="R"] .pl-left').textContent(), '1 left');
    // Both bishops on dark squares (c1 and e1... a1 c1 e1 g1 are dark): the picker says so.
    for (const [kind, square] of [['B', 'c1'], ['B', 'e1'], ['R', 'h1'], ['K', 'b1'], ['Q', 'd1'], ['N', 'f1'], ['N', 'g1']] as const) {
      await picker.locator(`.pl-kind[data-kind="${kind}"]`).click();
      await clickSquare(page, square);
    }
    assert.match((await picker.locator('.pl-status').textContent()) ?? '', /Both bishops stand on dark squares/);
    assert.equal(await page.locator('#place-confirm').isDisabled(), true);
    await screenshot(page, 'board-placement-wrong-desktop');

    // Swap by clicking two checkers: the bishop on e1 with the knight on f1.
    await clickSquare(page, 'e1');
    await page.locator('#board square.slot-selected').waitFor();
    await clickSquare(page, 'f1');
    assert.equal(await settledPieceAt(page, 'f1', 'white bishop'), 'white bishop');
    assert.equal(await picker.locator('.pl-status').textContent(), 'Checkers 1 to 8: rook, king, bishop, queen, knight, bishop, knight, rook.');
    assert.equal(await page.locator('#place-confirm').isDisabled(), false);
    assert.ok((await drawnCount(page, '#board .marker-piece-label', { atLeast: 16 })) >= 16, 'every checker keeps its number');
    await screenshot(page, 'board-placement-ready-desktop');

    // A drag from the list onto a checker replaces its identity.
    await clickSquare(page, 'g1');
    await clickSquare(page, 'g1'); // a second click on the same checker clears it
    assert.equal(await settledPieceAt(page, 'g1', 'white hidden'), 'white hidden');
    const g1 = await squareCenter(page, 'g1');
    await picker.locator('.pl-kind[data-kind="N"]').dragTo(page.locator('#board'), {
      targetPosition: await page.locator('#board').boundingBox().then(b => ({ x: g1.x - b!.x, y: g1.y - b!.y })),
    });
    assert.equal(await settledPieceAt(page, 'g1', 'white knight'), 'white knight');

    await page.locator('#place-confirm').click();
    await page.locator('.placement-picker').waitFor({ state: 'detached' });
    assert.deepEqual(server.posted, [{ token: 't0', action: 'place RKBQNBNR' }]);
    assert.equal(await settledPieceAt(page, 'a1', 'white hidden'), 'white hidden', 'the board shows the game’s view again');
    await context.close();
  });

  test('fits a phone', async () => {
    const { page, context } = await open(cloakSetupView(), PHONE);
    await page.locator('.placement-picker').waitFor();
    await page.locator('#place-random').click();
    assert.equal(await page.locator('#place-confirm').isDisabled(), false);
    await screenshot(page, 'board-placement-phone');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await context.close();
  });
});

describe('cloak and dagger: a turn', () => {
  test('uncloaking asks first; the bonus move has a button and says what each choice costs; ruled-out guesses are greyed', async () => {
    const { page, server, context } = await open(cloakTurnView());
    await page.locator('.turn-extras').waitFor();

    // One click on an own checker does not uncloak it: the board asks.
    await clickSquare(page, 'b1');
    await page.locator('.picker .pick-warning').waitFor();
    assert.match((await page.locator('.picker .pick-warning').textContent()) ?? '', /cannot be undone/);
    await screenshot(page, 'board-cloak-uncloak-ask-desktop');
    await page.locator('.picker button.pick-cancel').click();
    assert.equal(server.posted.length, 0, 'cancelled: nothing sent');
    assert.equal(await page.locator('.actions button.action[data-action^="uncloak"]').count(), 0, 'no one-click uncloaking in the panel');
    await page.locator('button.uncloak-button').click(); // the panel's button asks too
    await page.locator('.picker button[data-action="uncloak b1"]').waitFor();
    assert.match((await page.locator('.picker .pick-warning').textContent()) ?? '', /cannot be undone/);
    await page.locator('.picker button.pick-cancel').click();
    assert.equal(server.posted.length, 0);

    // The guesses on a8: the ruled-out ones greyed, disabled and last.
    await clickSquare(page, 'a8');
    await page.locator('.picker button.pick').first().waitFor();
    const guesses = page.locator('.picker button.pick');
    assert.deepEqual(await guesses.evaluateAll(bs => bs.map(b => (b as HTMLElement).dataset.action)), ['guess a8 Q', 'guess a8 R', 'guess a8 N', 'guess a8 K', 'guess a8 B']);
    assert.equal(await page.locator('.picker button.pick.ruled-out[disabled]').count(), 2);
    assert.deepEqual(
      await page.locator('.actions button.action[data-action^="guess"]').evaluateAll(bs => bs.map(b => (b as HTMLElement).dataset.action)),
      ['guess a8 Q', 'guess a8 R', 'guess a8 N'],
      'the panel leaves the ruled-out guesses out',
    );
    await screenshot(page, 'board-cloak-guesses-desktop');
    await page.locator('.picker button.pick-cancel').click();

    // The same squares as a bonus move or the regular move: the picker says which keeps and which gives up the bonus.
    await clickMove(page, 'e2', 'e4');
    await page.locator('.picker button[data-action="bonus e2e4"]').waitFor();
    assert.deepEqual(await page.locator('.picker button.pick span').allTextContents(), [
      'bonus move (you keep your turn)',
      'regular move (gives up your bonus move)',
    ]);
    assert.equal(await page.locator('.picker .pick-title').textContent(), 'e2-e4 as your');
    await screenshot(page, 'board-cloak-bonus-or-regular-desktop');
    await page.locator('.picker button.pick-cancel').click();

    // The bonus button lists the bonus moves.
    await page.locator('button.bonus-button').click();
    await page.locator('.picker button[data-action="bonus d2d3"]').click();
    await page.locator('main.game[data-version="4"]').waitFor();
    assert.deepEqual(server.posted, [{ token: 't0', action: 'bonus d2d3' }]);
    await context.close();
  });

  test('a guess the game leaves out is simply not offered; a square with only ruled-out guesses is not ringed', async () => {
    const view = cloakTurnView();
    view.actions = view.actions.filter(a => !/^guess a8 [QRN]/.test(a.text)); // only ruled-out guesses left on a8
    view.actions.push({ text: 'guess b8 Q', square: 'b8', label: 'Guess: the checker on b8 is a queen' });
    const { page, server, context } = await open(view);
    assert.equal(await drawnCount(page, '#board square.target', 2), 2, 'b8 (a guess) and b1 (uncloaking), not a8');
    await clickSquare(page, 'b8');
    await page.locator('main.game[data-version="4"]').waitFor();
    assert.deepEqual(server.posted, [{ token: 't0', action: 'guess b8 Q' }]);
    await context.close();
  });

  test('fits a phone', async () => {
    const { page, context } = await open(cloakTurnView(), PHONE);
    await clickSquare(page, 'a8');
    await page.locator('.picker button.pick').first().waitFor();
    await screenshot(page, 'board-cloak-guesses-phone');
    await context.close();
  });
});
