// Each of the games a person may find hard to start, played in the browser
// against the real server (`chesskit serve`) from the lobby: Masquerade's
// secret assignment, a move and a capture attempt; Cloak and Dagger's
// secret placement, a guess, a move and the end of the turn; Chess Golf's
// `players` option in the lobby, a count, a demonstrated move and giving
// up. Screenshots go to web/test-results/e2e-<game>-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import type { ActionInfo } from '../src/types.ts';
import {
  clickMove,
  clickSquare,
  dragMove,
  drawnCount,
  logEntries,
  screenshot,
  seatView,
  requireVariant,
  serverAndBrowser,
  waitForLog,
} from './harness.ts';

const setup = serverAndBrowser();

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return { context, page };
}

/** Choose the variant in the lobby, set the options, pick each seat, create, and return the game's id. */
async function createFromLobby(page: Page, variant: string, seats: string[], options: Record<string, string> = {}): Promise<string> {
  await page.goto(`${setup.server.url}/`);
  await page.locator(`button.variant[data-variant="${variant}"]`).click();
  for (const [name, value] of Object.entries(options)) await page.locator(`[data-option="${name}"]`).fill(value);
  assert.equal(await page.locator('select[data-seat]').count(), seats.length, 'the lobby shows one seat per player');
  for (const [i, choice] of seats.entries()) await page.locator(`select[data-seat="${i}"]`).selectOption(choice);
  await page.locator('#create').click();
  await page.waitForURL(/\/play\/[^?]+$/);
  await page.locator('main.game[data-version]').waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

const myView = (page: Page, id: string, seat = 0) => seatView(setup.server.url, page, id, seat);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 20_000 });
const version = (page: Page) => page.locator('main.game').getAttribute('data-version').then(Number);

/** Choose `action` in the picker of its group (a select, since the group is long) and play it. */
async function pick(page: Page, group: string, action: string): Promise<void> {
  const select = page.locator(`.action-picker select[data-group="${group}"]`);
  await select.selectOption(action);
  await page.locator(`.action-picker button.pick-go[data-group="${group}"]`).click();
}


describe('masquerade', () => {
  test('the secret assignment from the picture, a move, then a capture attempt', async () => {
    requireVariant(setup, 'masquerade');
    const { context, page } = await newPage();
    const id = await createFromLobby(page, 'masquerade', ['me', 'computer:level2']);
    await myTurn(page);
    assert.match((await page.locator('.status .prompt').textContent()) ?? '', /[Aa]ssign/);
    assert.equal(await page.locator('button.action[data-action^="assign"]').count(), 0, 'no wall of 120 buttons');
    // webboard: the assignment is made on a picture of the pieces and capture moves (src/pickers/assignment.ts)
    // The game's picker, not the one of the book's example above it (src/learn.ts).
    const picker = page.locator('.assignment-picker:not(.example-picker)');
    assert.equal(await picker.locator('.mq-piece').count(), 5);
    assert.equal(await picker.locator('.assign-confirm').isDisabled(), true, 'nothing chosen yet');
    await screenshot(page, 'e2e-masquerade-assign');

    for (const [piece, capture] of ['KR', 'QK', 'RN', 'BB', 'NQ']) {
      await picker.locator(`.mq-piece[data-piece="${piece}"]`).click();
      await picker.locator(`.mq-capture[data-capture="${capture}"]`).click();
    }
    await picker.locator('.assign-confirm').click();
    await picker.waitFor({ state: 'detached' });
    await myTurn(page);
    await clickMove(page, 'e2', 'e4');
    await page.waitForFunction(() => [...document.querySelectorAll('.log .entry')].some(e => /e4/.test(e.textContent ?? '')));
    await myTurn(page);

    // Bring pieces out until one can attempt a capture, then attempt it by clicking.
    const quiet = ['d1h5', 'f1c4', 'd2d4', 'g1f3', 'b1c3', 'd1f3'];
    let attempted: ActionInfo | undefined;
    for (let turn = 0; turn < 8 && !attempted; turn++) {
      const view = await myView(page, id);
      const enemy = new Set(view.board!.squares.filter(s => s.piece?.colour === 'black').map(s => s.square));
      const capture = view.actions.find(a => a.from && a.to && enemy.has(a.to));
      const move = capture ?? view.actions.find(a => quiet.includes(a.text)) ?? view.actions.find(a => a.from && a.to)!;
      const before = (await logEntries(page)).length;
      await clickMove(page, move.from!, move.to!);
      await waitForLog(page, before + 1);
      if (capture) attempted = capture;
      else await myTurn(page);
    }
    assert.ok(attempted, 'a capture attempt came within eight moves');
    console.log(`masquerade: attempted ${attempted.text}; log ends ${(await logEntries(page)).slice(-2).join(' | ')}`);
    await screenshot(page, 'e2e-masquerade-attempt');
    await context.close();
  });
});

describe('cloak and dagger', () => {
  test('the secret placement on the board, a guess on the board, a move, the end of the turn', async () => {
    requireVariant(setup, 'cloak-and-dagger');
    const { context, page } = await newPage();
    const id = await createFromLobby(page, 'cloak-and-dagger', ['me', 'computer:level2']);
    await myTurn(page);
    assert.equal(await drawnCount(page, '#board piece:not(.ghost):not(.fading)', 32), 32, 'cloaked checkers are drawn, with their numbers');
    await screenshot(page, 'e2e-cloak-place');

    // webboard: the placement is made on the board's checkers (src/pickers/placement.ts)
    for (const [i, kind] of [...'RNBQKBNR'].entries()) {
      await page.locator(`.placement-picker .pl-kind[data-kind="${kind}"]`).click();
      await clickSquare(page, `${'abcdefgh'[i]}1`);
    }
    await page.locator('#place-confirm').click();
    await page.locator('.placement-picker').waitFor({ state: 'detached' });
    await myTurn(page);
    assert.match((await page.locator('.status .prompt').textContent()) ?? '', /guess/);
    const v1 = await version(page);
    await clickSquare(page, 'a8'); // five guesses on one square: the board asks which
    await page.locator('.picker button.pick').first().waitFor();
    assert.equal(await page.locator('.picker button.pick').count(), 5);
    await screenshot(page, 'e2e-cloak-guess');
    await page.locator('.picker button[data-action="guess a8 R"]').click();
    await page.locator(`main.game:not([data-version="${v1}"])`).waitFor();
    assert.match((await logEntries(page)).join(' '), /guesses/);

    await clickMove(page, 'e2', 'e4');
    await page.locator('button.action[data-action="done"]').waitFor();
    assert.equal(await page.locator('button.uncloak-button').count(), 1, 'uncloaking offered, asked first (webboard)');
    await screenshot(page, 'e2e-cloak-end-of-turn');
    await page.locator('button.action[data-action="done"]').click();
    await page.locator('.status .turn', { hasText: 'Waiting for Black' }).or(page.locator('.status[data-my-turn="yes"]')).first().waitFor();
    await myTurn(page);
    const view = await myView(page, id);
    assert.ok(view.log.length >= 5, 'Black answered');
    await screenshot(page, 'e2e-cloak-answered');
    await context.close();
  });
});

describe('chess golf', () => {
  test('the lobby follows the players option; a count, a demonstrated move, giving up', async () => {
    requireVariant(setup, 'golf');
    const { context, page } = await newPage();
    await page.goto(`${setup.server.url}/`);
    await page.locator('button.variant[data-variant="golf"]').click();
    await page.locator('[data-option="players"]').fill('3');
    assert.deepEqual(await page.locator('.seat-row .seat-name').allTextContents(), ['Player 1', 'Player 2', 'Player 3']);
    await page.locator('select[data-seat="2"]').selectOption('computer:random');
    await screenshot(page, 'e2e-golf-lobby');
    await page.locator('[data-option="players"]').fill('1');
    assert.deepEqual(await page.locator('.seat-row .seat-name').allTextContents(), ['Player 1']);

    const id = await createFromLobby(page, 'golf', ['me'], { players: '1' });
    const info = await (await fetch(`${setup.server.url}/api/games/${id}`)).json();
    assert.equal(info.seats.length, 1, 'a one-player round');
    await myTurn(page);
    assert.equal(await page.locator('.action-picker select[data-group="count"]').count(), 1, 'the counts are one picker');
    assert.equal(await page.locator('button.action[data-action="impossible"]').count(), 1);
    await screenshot(page, 'e2e-golf-count');

    await pick(page, 'count', 'count 3');
    await myTurn(page);
    const sheet = page.locator('.tables table', { hasText: 'Score sheet' });
    await page.locator('.action-picker[data-group="count"]').waitFor({ state: 'detached' });
    assert.match((await sheet.locator('tbody tr').first().textContent()) ?? '', /3/, 'the count is on the score sheet');

    // Demonstrate one move by dragging a piece the view says may move.
    const view = await myView(page, id);
    const move = view.actions.find(a => a.from && a.to);
    if (move) {
      const before = (await logEntries(page)).length;
      await dragMove(page, move.from!, move.to!);
      await waitForLog(page, before + 1);
      assert.match((await logEntries(page)).slice(-3).join(' '), new RegExp(move.to!));
      await screenshot(page, 'e2e-golf-demonstrating');
    }
    const giveUp = page.locator('button.action[data-action="give up"]');
    if (await giveUp.count()) {
      const v = await version(page);
      await giveUp.click();
      await page.locator(`main.game:not([data-version="${v}"])`).waitFor();
    }
    await screenshot(page, 'e2e-golf-after');
    await context.close();
  });
});
