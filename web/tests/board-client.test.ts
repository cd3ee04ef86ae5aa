// The board's features in Chromium against the stand-in server (tests/mock.ts,
// tests/board-mock.ts): Masquerade's assignment as a picture, Cloak and
// Dagger's placement on the board, its uncloaking asked first, its bonus
// button and greyed guesses, flipping the board and turning it for each
// player, stepping back through the moves, and readable coordinates.
// Screenshots (desktop 1366x800 and phone 390x844) go to
// web/test-results/board-*.png.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { View } from '../src/types.ts';
import { cloakSetupView, cloakTurnView, chess960Ranks, chessView, historyRequests, installHistory, masqueradeSetupView } from './board-mock.ts';
import { RESULTS, clickMove, clickSquare, launchBrowser, pieceAt, screenshot, settledPieceAt, squareCenter, watchRequests } from './harness.ts';
import { MockServer, ORIGIN, demoVariant, gameInfo, richView, startSquares } from './mock.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const DESKTOP = { viewport: { width: 1366, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** A one-seat game page showing `view` (token t0) on a desktop or a phone. */
async function open(view: View, size = DESKTOP, hidden = true): Promise<{ page: Page; server: MockServer; context: BrowserContext }> {
  const server = new MockServer([{ ...demoVariant(hidden), name: view.variant }], { ...gameInfo('b1', ['human', 'computer']), variant: view.variant }, { t0: 0 });
  server.views.set('t0', { version: 3, view });
  server.onAction = ({ action }) => {
    const done = { ...view, actions: [], to_act: [1], prompt: 'Waiting.' };
    server.views.set('t0', { version: 4, view: done });
    return { status: 200, body: { action, version: 4, view: done } };
  };
  const context = await browser.newContext(size);
  await server.install(context);
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  await page.goto(`${ORIGIN}/play/b1?token=t0`);
  await page.locator('main.game[data-version="3"]').waitFor();
  return { page, server, context };
}

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
    assert.equal(await page.locator('#board square.slot').count(), 8, 'the eight checkers are the places to click');
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
    assert.equal(await page.locator('#board .marker-piece-label').count() >= 16, true, 'every checker keeps its number');
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
    assert.equal(await page.locator('#board square.target').count(), 2, 'b8 (a guess) and b1 (uncloaking), not a8');
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

/** The view of a one-seat game (Neighbour, Parade) with a white king on `king`, a `colour` bishop on `bishop`, and moves `actions`. */
function solitaire(king: string, bishop: string, colour: 'white' | 'black', actions: string[]): View {
  return {
    variant: 'demo',
    viewer: { seat: 0 },
    seats: [{ name: 'Player' }],
    to_act: [0],
    log: [],
    actions: actions.map(text => ({ text, from: text.slice(0, 2), to: text.slice(2, 4) })),
    board: {
      files: 8,
      ranks: 8,
      squares: [
        { square: king, piece: { colour: 'white', role: 'king' } },
        { square: bishop, piece: { colour, role: 'bishop' } },
      ],
    },
  };
}

describe('a solitaire: one seat of no colour moving pieces of either colour', () => {
  test('one click picks up a black piece when only black pieces may move', async () => {
    // Neighbour or Parade's seat: a white king that cannot move, a black bishop that can.
    const { page, server, context } = await open(solitaire('a7', 'b6', 'black', ['b6c5', 'b6a5']));
    await clickSquare(page, 'b6');
    // Chessground draws the selection at the next animation frame.
    await page.locator('#board square.selected:visible').first().waitFor({ timeout: 3_000 });
    assert.equal(await page.locator('#board square.selected:visible').count(), 1, 'the bishop is picked up at the first click');
    assert.equal(await page.locator('#board square.move-dest').count(), 2, 'its two destinations are shown');
    await clickSquare(page, 'c5');
    await page.locator('main.game[data-version="4"]').waitFor();
    assert.deepEqual(server.posted, [{ token: 't0', action: 'b6c5' }]);
    await context.close();
  });
});

describe('the socket tells a change before the action’s own answer', () => {
  test('the page shows the change with the answer, and one click then picks up a piece', async () => {
    // The real server often does this: its socket's change arrives some milliseconds before the
    // answer to the POST that caused it. A solitaire: after b6-c5 the same player moves again.
    const view = (bishop: string, actions: string[]): View => solitaire('a1', bishop, 'white', actions);
    const { page, server, context } = await open(view('b6', ['b6c5']));
    const after = view('c5', ['c5d4']);
    let answer!: () => void;
    const answered = new Promise<void>(resolve => (answer = resolve));
    server.onAction = async ({ action }) => {
      server.push('t0', 4, after); // the socket first
      await answered; // the answer later
      return { status: 200, body: { action, version: 4, view: after } };
    };
    await clickSquare(page, 'b6');
    await page.locator('#board square.selected:visible').first().waitFor({ timeout: 3_000 });
    await clickSquare(page, 'c5');
    await server.until(() => server.posted.length > 0, 'the move to c5 is posted');
    const late = setTimeout(answer, 500); // the answer comes half a second after the socket's change

    // Whenever the page shows the next position, it can be played: one click picks up the bishop.
    await page.locator('main.game[data-version="4"]').waitFor();
    await clickSquare(page, 'c5');
    await page.locator('#board square.selected:visible').first().waitFor({ timeout: 1_500 });
    clearTimeout(late);
    answer();
    await context.close();
  });
});

describe('flipping the board', () => {
  test('a button flips it, and the page remembers that for this game', async () => {
    const { page, context } = await open(richView(), DESKTOP, false);
    assert.equal(await page.locator('#board.orientation-white').count(), 1);
    await page.locator('.board-bar button.flip').click();
    assert.equal(await page.locator('#board.orientation-black').count(), 1);
    assert.equal(await pieceAt(page, 'e1'), 'white king', 'squares are found the other way round');
    await screenshot(page, 'board-flipped-desktop');
    const boardBox = (await page.locator('#board').boundingBox())!;
    assert.ok((await page.locator('.player .seat[data-seat="0"]').boundingBox())!.y < boardBox.y, 'White’s name moved above, by White’s pieces');
    await page.reload();
    await page.locator('main.game[data-version="3"]').waitFor();
    assert.equal(await page.locator('#board.orientation-black').count(), 1, 'remembered after a reload');
    assert.equal(await page.locator('.board-bar button.flip').getAttribute('aria-pressed'), 'true');
    await page.locator('.board-bar button.flip').click();
    assert.equal(await page.locator('#board.orientation-white').count(), 1);
    await context.close();
  });

  test('on a phone', async () => {
    const { page, context } = await open(richView(), PHONE, false);
    await page.locator('.board-bar button.flip').click();
    assert.equal(await page.locator('#board.orientation-black').count(), 1);
    await screenshot(page, 'board-flipped-phone');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await context.close();
  });

  test('two players on one device: the board turns for each unless told not to', async () => {
    const make = (seat: number, version: number): View => ({
      ...chessView(version > 1 ? [['e2', 'e4']] : []),
      viewer: { seat },
      to_act: [version > 1 ? 1 : 0],
      actions:
        seat === (version > 1 ? 1 : 0) ? (seat === 0 ? [{ text: 'e2e4', from: 'e2', to: 'e4' }] : [{ text: 'e7e5', from: 'e7', to: 'e5' }]) : [],
    });
    const server = new MockServer([demoVariant(false)], gameInfo('b2', ['human', 'human']), { t0: 0, t1: 1 });
    server.views.set('t0', { version: 1, view: make(0, 1) });
    server.views.set('t1', { version: 1, view: make(1, 1) });
    server.onAction = ({ action }) => {
      setTimeout(() => server.push('t1', 2, make(1, 2)), 50);
      server.views.set('t0', { version: 2, view: make(0, 2) });
      return { status: 200, body: { action, version: 2, view: make(0, 2) } };
    };
    const context = await browser.newContext(DESKTOP);
    await context.addInitScript(() => {
      if (!localStorage.getItem('chesskit:game:b2')) localStorage.setItem('chesskit:game:b2', JSON.stringify({ tokens: { 0: 't0', 1: 't1' }, invites: [] }));
    });
    await server.install(context);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/play/b2`);
    await page.locator('main.game[data-seat="0"]').waitFor();
    const turnEach = page.locator('#turn-each');
    assert.equal(await turnEach.isChecked(), true, 'on by default, as before');
    await turnEach.uncheck();
    await screenshot(page, 'board-hotseat-desktop');
    await clickMove(page, 'e2', 'e4');
    await page.locator('main.game[data-seat="1"]').waitFor();
    assert.equal(await page.locator('#board.orientation-white').count(), 1, 'Black’s turn, the board stays put');
    const boardBox = (await page.locator('#board').boundingBox())!;
    const whiteBar = (await page.locator('.player .seat[data-seat="0"]').boundingBox())!;
    const blackBar = (await page.locator('.player .seat[data-seat="1"]').boundingBox())!;
    assert.ok(whiteBar.y > boardBox.y + boardBox.height - 1, 'White’s name stays below, by White’s pieces');
    assert.ok(blackBar.y < boardBox.y, 'Black’s name stays above');
    await screenshot(page, 'board-hotseat-black-to-move-desktop');
    await page.reload();
    await page.locator('main.game[data-seat="1"]').waitFor();
    assert.equal(await page.locator('#turn-each').isChecked(), false, 'remembered');
    assert.equal(await page.locator('#board.orientation-white').count(), 1);
    await page.locator('#turn-each').check();
    assert.equal(await page.locator('#board.orientation-black').count(), 1, 'turned for Black again');
    await context.close();
  });
});

describe('stepping back through the moves', () => {
  const moves: [string, string][] = [
    ['e2', 'e4'],
    ['e7', 'e5'],
    ['g1', 'f3'],
    ['b8', 'c6'],
  ];
  const past = () => [0, 1, 2, 3, 4].map(n => chessView(moves.slice(0, n)));
  const live = (n = 4): View => ({ ...chessView(moves.slice(0, n)), actions: [{ text: 'f1c4', from: 'f1', to: 'c4' }, { text: 'done', label: 'End the turn' }] });

  async function game(size = DESKTOP) {
    const server = new MockServer([demoVariant(false)], gameInfo('b3', ['human', 'human']), { t0: 0 });
    server.views.set('t0', { version: 4, view: live() });
    const context = await browser.newContext(size);
    await server.install(context);
    await installHistory(context, server, new Map([['t0', past()]]));
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    await page.goto(`${ORIGIN}/play/b3?token=t0`);
    await page.locator('main.game[data-version="4"]').waitFor();
    return { page, server, context };
  }

  test('back, forward, first and last fetch the past view and show it read-only; live updates still arrive', async () => {
    const { page, server, context } = await game();
    historyRequests.length = 0;
    const note = page.locator('.history-note');
    assert.equal(await note.isVisible(), false);
    await page.locator('.board-bar button[data-step="back"]').click();
    await page.locator('main.game[data-version="3"]').waitFor();
    assert.equal(await note.locator('.history-text').textContent(), 'Viewing move 3 of 4');
    assert.deepEqual(historyRequests, ['t0:3']);
    assert.equal(await settledPieceAt(page, 'b8', 'black knight'), 'black knight', 'Black’s knight is home again');
    assert.equal(await page.locator('button.action').count(), 0, 'no actions while looking back');
    assert.equal(await page.locator('.board-col.looking-back').count(), 1);
    await screenshot(page, 'board-history-desktop');

    // Moving a piece does nothing.
    const requests = watchRequests(page);
    await clickSquare(page, 'f1');
    await clickSquare(page, 'c4');
    await requests.quiet();
    assert.equal(server.posted.length, 0);

    // Arrow keys and Home (the focus stays on the step buttons as they are redrawn).
    await page.locator('.board-bar button[data-step="back"]').focus();
    await page.keyboard.press('ArrowLeft');
    await page.locator('main.game[data-version="2"]').waitFor();
    await page.keyboard.press('Home');
    await page.locator('main.game[data-version="0"]').waitFor();
    assert.equal(await settledPieceAt(page, 'e2', 'white pawn'), 'white pawn', 'the start');
    assert.equal(await page.locator('.board-bar button[data-step="back"]').isDisabled(), true);
    await page.keyboard.press('ArrowRight');
    await page.locator('main.game[data-version="1"]').waitFor();
    assert.equal(await settledPieceAt(page, 'e4', 'white pawn'), 'white pawn');

    // A live move arrives: the page says so and stays where the player looks.
    const five = chessView([...moves, ['f1', 'c4']]);
    server.push('t0', 5, five);
    await note.locator('.history-text', { hasText: 'Viewing move 1 of 5' }).waitFor();
    assert.equal(await settledPieceAt(page, 'c4', null), null, 'still the past board');

    await note.locator('button.history-back').click();
    await page.locator('main.game[data-version="5"]').waitFor();
    assert.equal(await note.isVisible(), false);
    assert.equal(await settledPieceAt(page, 'c4', 'white bishop'), 'white bishop');
    assert.equal(await page.locator('.board-col.looking-back').count(), 0);

    // End also goes back to the game (Home and End step from the board's buttons; elsewhere they scroll the page).
    await page.keyboard.press('ArrowLeft');
    await page.locator('main.game[data-version="4"]').waitFor();
    await page.keyboard.press('End');
    await requests.quiet();
    assert.equal(await page.locator('main.game').getAttribute('data-version'), '4', 'End with the focus outside the board scrolls, not steps');
    await page.locator('.board-bar button[data-step="back"]').focus();
    await page.keyboard.press('End');
    await page.locator('main.game[data-version="5"]').waitFor();
    await context.close();
  });

  test('on a phone', async () => {
    const { page, context } = await game(PHONE);
    await page.locator('.board-bar button[data-step="back"]').click();
    await page.locator('.board-bar button[data-step="back"]').click();
    await page.locator('main.game[data-version="2"]').waitFor();
    await screenshot(page, 'board-history-phone');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await context.close();
  });
});

describe('coordinates and badges', () => {
  /** Contrast ratio (WCAG) of two CSS rgb colours. */
  function contrast(a: string, b: string): number {
    const lum = (c: string) => {
      const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map(v => v / 255).map(v => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    };
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  }

  for (const [name, size, minPx] of [['desktop', DESKTOP, 13], ['phone', PHONE, 11]] as const) {
    test(`readable on the ${name}: contrast of 7:1 or more on both square colours, at least ${minPx} px`, async () => {
      const view = { ...richView(), board: { files: 8, ranks: 8, squares: [...startSquares().filter(s => s.square !== 'c1'), { square: 'c1', piece: { colour: 'white', role: 'bishop' }, markers: [{ kind: 'burial', text: 'P', colour: 'black', draw: [{ shape: 'badge', corner: 'top_right', fill: 'black', rim: '#6d4c41', text: 'P' }] }] }] } } as View;
      const { page, context } = await open(view, size, false);
      const coords = await page.locator('#board coords coord').evaluateAll(cs =>
        cs.map(c => ({ text: c.textContent, light: c.classList.contains('coord-light'), color: getComputedStyle(c).color, size: parseFloat(getComputedStyle(c).fontSize), opacity: getComputedStyle(c.parentElement!).opacity })),
      );
      assert.equal(coords.length, 16);
      for (const c of coords) {
        assert.ok(c.size >= minPx, `${c.text} is ${c.size}px`);
        assert.equal(c.opacity, '1');
        // chessground's brown board: light squares #f0d9b5, dark ones the same under 20% black (chessground.brown.css)
        const square = c.light ? 'rgb(240, 217, 181)' : 'rgb(192, 174, 145)';
        const ratio = contrast(c.color, square);
        assert.ok(ratio >= 7, `${c.text}: ${c.color} on a ${c.light ? 'light' : 'dark'} square, contrast ${ratio.toFixed(1)}`);
      }
      // a1 is dark, so rank 1 and file a are marked dark; b1 light.
      const byText = new Map(coords.map(c => [c.text, c.light]));
      assert.equal(byText.get('1'), false);
      assert.equal(byText.get('2'), true);
      assert.equal(byText.get('a'), false);
      assert.equal(byText.get('b'), true);

      // The burial badge on c1 keeps clear of the file letter c.
      const letter = (await page.locator('#board coords.files coord', { hasText: /^c$/ }).boundingBox())!;
      const badge = (await page.locator('#board .marker-burial circle').boundingBox())!;
      const overlap = !(badge.x > letter.x + letter.width || badge.x + badge.width < letter.x || badge.y > letter.y + letter.height || badge.y + badge.height < letter.y);
      assert.equal(overlap, false, `badge ${JSON.stringify(badge)} and letter ${JSON.stringify(letter)}`);
      await screenshot(page, `board-coords-${name}`);
      await page.locator('.board-wrap').screenshot({ path: `${RESULTS}/board-coords-${name}-closeup.png` });
      await context.close();
    });
  }
});


