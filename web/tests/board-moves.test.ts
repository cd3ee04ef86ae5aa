// The board in Chromium against the stand-in server (tests/mock.ts,
// tests/board-mock.ts): one click picks up a piece of either colour in a
// solitaire and right after a socket's change, flipping the board and
// turning it for each player, stepping back through the moves, and readable
// coordinates. (The games' pickers on the board: board-client.test.ts.)
// Screenshots (desktop 1366x800 and phone 390x844) go to
// web/test-results/board-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions } from 'playwright-core';
import type { View } from '../src/types.ts';
import { DESKTOP, PHONE, chessView, historyRequests, installHistory, openBoardPage } from './board-mock.ts';
import { RESULTS, boardAtRest, clickMove, clickSquare, browserOfFile, pieceAt, screenshot, settledPieceAt, watchRequests } from './harness.ts';
import { MockServer, ORIGIN, demoVariant, gameInfo, richView, startSquares } from './mock.ts';

const chromium = browserOfFile();

const open = (view: View, size: BrowserContextOptions = DESKTOP, hidden = true) => openBoardPage(chromium.browser, view, size, hidden);

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
    const context = await chromium.browser.newContext(DESKTOP);
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
    const context = await chromium.browser.newContext(size);
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

describe('motion: pieces slide to their squares unless the player asks for reduced motion', () => {
  const moves: [string, string][] = [
    ['e2', 'e4'],
    ['e7', 'e5'],
    ['g1', 'f3'],
  ];

  /**
   * Whether the board slid a piece (chessground marks a sliding piece `anim`) when the
   * opponent's move arrived, in a page whose player asks for `motion`. Every piece the
   * board draws is watched, so that a slide as short as one frame is still seen.
   */
  async function slidWhenAMoveArrived(motion: 'reduce' | 'no-preference'): Promise<boolean> {
    const { page, server, context } = await open(chessView(moves), { ...DESKTOP, reducedMotion: motion });
    await server.until(() => server.socketAttempts > 0, 'the page’s socket');
    await page.evaluate(() => {
      const seen = document.querySelector('#board')!;
      new MutationObserver(changes => {
        if (changes.some(c => c.target instanceof Element && c.target.matches('piece.anim'))) seen.setAttribute('data-slid', '');
      }).observe(seen, { subtree: true, attributes: true, attributeFilter: ['class'] });
    });
    server.push('t0', 4, chessView([...moves, ['b8', 'c6']]));
    await page.locator('main.game[data-version="4"]').waitFor();
    assert.equal(await settledPieceAt(page, 'c6', 'black knight'), 'black knight');
    await boardAtRest(page);
    const slid = (await page.locator('#board[data-slid]').count()) === 1;
    await context.close();
    return slid;
  }

  test('with motion on (the browser’s default), the arriving move slides', async () => {
    assert.equal(await slidWhenAMoveArrived('no-preference'), true);
  });

  test('prefers-reduced-motion: reduce: the arriving move jumps, no frame of a slide', async () => {
    assert.equal(await slidWhenAMoveArrived('reduce'), false);
  });
});
