// The client against the real server (`chesskit serve`): a game against
// the computer from the lobby, moves by clicking, the computer's answer, a
// reload; the hard computer and the rules panel; Zombie's burial by a
// click; several people on one device; a phone-sized screen. Screenshots
// go to web/test-results/. (Two browsers through an invite link, and the
// special moves: e2e-two-browsers.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, clickSquare, createFromLobby, drawnCount, logEntries, newContextPage, screenshot, requireVariant, serverAndBrowser, settledPieceAt, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

/** Zombie Chess when the server has it (the game), else orthodox chess. */
function gameAgainstComputer(): string {
  return setup.variants.some(v => v.name === 'zombie') ? 'zombie' : 'chess';
}

const newPage = (viewport = { width: 1200, height: 860 }, extra = {}) => newContextPage(setup.browser, { viewport, ...extra });

const version = (page: Page) => page.locator('main.game').getAttribute('data-version').then(Number);

describe('against the computer', () => {
  test('start from the lobby, move by clicking, see the answer, reload and find the game intact', async () => {
    const variant = gameAgainstComputer();
    console.log(`playing ${variant} against the computer`);
    const { context, page } = await newPage();
    await page.goto(`${setup.server.url}/`);
    await page.locator('button.variant').first().waitFor();
    assert.ok((await page.locator('button.variant').count()) >= 2, 'the lobby lists the variants');
    await screenshot(page, 'e2e-lobby');

    const id = await createFromLobby(page, setup.server.url, variant, ['me', 'computer:level2']);
    await page.locator('.status[data-my-turn="yes"]').waitFor();
    assert.equal(await page.locator('#board.orientation-white').count(), 1, 'White sees the board from White’s side');
    assert.equal(await settledPieceAt(page, 'e2', 'white pawn'), 'white pawn');
    await screenshot(page, 'e2e-computer-start');

    await clickMove(page, 'e2', 'e4');
    const log = await waitForLog(page, 2); // my move, then the computer's
    assert.match(log[0], /e4/, 'my move opens the move list');
    await page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 15_000 });
    assert.equal(await settledPieceAt(page, 'e4', 'white pawn'), 'white pawn');
    assert.equal(await drawnCount(page, '#board square.last-move', 2), 2, 'the computer’s move is highlighted');
    await screenshot(page, 'e2e-computer-answered');

    const before = { version: await version(page), log: await logEntries(page) };
    await page.reload();
    await page.locator(`main.game[data-version="${before.version}"]`).waitFor();
    assert.equal(new URL(page.url()).pathname, `/play/${id}`);
    assert.equal(await page.locator('main.game').getAttribute('data-seat'), '0', 'still playing White after a reload');
    assert.deepEqual(await logEntries(page), before.log);
    assert.equal(await settledPieceAt(page, 'e4', 'white pawn'), 'white pawn');
    assert.equal(await page.locator('.status[data-my-turn="yes"]').count(), 1, 'and it is still my turn');
    await screenshot(page, 'e2e-computer-reloaded');

    await page.goto(`${setup.server.url}/`);
    await page.locator('button.variant').first().waitFor(); // the lobby draws itself once it has the list of games
    assert.equal(await page.locator(`.my-games a[href="/play/${id}"]`).count(), 1, 'the lobby lists my game');
    await context.close();
  });
});

describe('the computer’s levels and the rules', () => {
  test('the hard computer answers a move, and the rules panel shows the rules document', async () => {
    const { context, page } = await newPage();
    const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'computer:level6']);
    const info = await (await fetch(`${setup.server.url}/api/games/${id}`)).json();
    assert.equal(info.seats[1].kind, 'computer:level6');
    assert.equal(await page.locator('.player.top .kind').textContent(), 'computer (hard)');
    await page.locator('.status[data-my-turn="yes"]').waitFor();
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, 2);
    await page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 15_000 });

    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    // docs/api.md: the rules endpoint keeps "The rules in our words" and "Rulings" (the action texts may go).
    assert.ok(headings.includes('Rulings'), `${headings}`);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /come up three times/, 'the repetition ruling');
    await screenshot(page, 'e2e-rules');
    await context.close();
  });

  test('the lobby shows a game’s rules for players: the rules in our words and the rulings, not the developer sections', async () => {
    const variant = ['zombie', 'cloak-and-dagger', 'masquerade'].find(v => setup.variants.some(x => x.name === v));
    assert.ok(variant, `the server offers none of zombie, cloak-and-dagger, masquerade (it offers: ${setup.variants.map(v => v.name).join(', ')})`);
    const { context, page } = await newPage();
    await page.goto(`${setup.server.url}/`);
    await page.locator(`button.variant[data-variant="${variant}"]`).click();
    await page.locator('#new-game details.rules summary').click();
    await page.locator('#new-game .rules-doc li').first().waitFor();
    assert.ok((await page.locator('#new-game .rules-doc li').count()) > 3);
    const headings = await page.locator('#new-game .rules-doc h2').allTextContents();
    assert.deepEqual(headings, ['The rules in our words', 'Rulings']);
    await screenshot(page, 'e2e-lobby-rules');
    await context.close();
  });
});

describe('zombie chess', () => {
  test('a capture is buried by clicking a square, and the zombie rises with its coin', async () => {
    requireVariant(setup, 'zombie');
    const { context, page } = await newPage();
    const id = await createFromLobby(page, setup.server.url, 'zombie', ['me', 'open']);
    const invite = new URL(await page.locator('.invite-link[data-seat="1"]').inputValue());
    const blackToken = invite.searchParams.get('token')!;
    const black = async (action: string) => {
      const response = await fetch(`${setup.server.url}/api/games/${id}/actions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: blackToken, action }),
      });
      assert.equal(response.status, 200, `${action}: ${await response.text()}`);
    };
    const myTurn = () => page.locator('.status[data-my-turn="yes"]').waitFor();
    const theirTurn = () => page.locator('.status .turn', { hasText: 'Waiting for Black' }).waitFor();

    await myTurn();
    await clickMove(page, 'e2', 'e4');
    await theirTurn();
    await black('d7d5');
    await myTurn();
    await clickMove(page, 'e4', 'd5'); // a capture: now bury the pawn under one of my pieces
    await page.locator('#board square.target').first().waitFor();
    assert.match((await page.locator('.status .prompt').textContent()) ?? '', /[Bb]ury/);
    assert.ok((await page.locator('button.action[data-action^="bury"]').count()) > 1, 'every burial is also a button');
    await screenshot(page, 'e2e-zombie-bury');
    await clickSquare(page, 'b2');
    await page.locator('#board .marker-burial').waitFor();
    assert.match((await page.locator('.notes').textContent()) ?? '', /b2/, 'my secret grid holds the burial');
    await theirTurn();

    await black('d8d5');
    await black('bury e7');
    await myTurn();
    await clickMove(page, 'b2', 'b3'); // leaving b2 raises the buried pawn as a zombie
    await page.locator('#board .marker-zombie').waitFor();
    assert.equal(await settledPieceAt(page, 'b2', 'black pawn'), 'black pawn');
    await screenshot(page, 'e2e-zombie-risen');
    await context.close();
  });
});

describe('several people on one device', () => {
  test('the page shows the seat that must act, behind a privacy screen when the game hides things', async () => {
    const hidden = setup.variants.find(v => v.hidden_information && v.seats.length === 2 && v.name === 'zombie');
    const variant = hidden?.name ?? 'chess';
    console.log(`sharing one device in ${variant}`);
    const { context, page } = await newPage();
    await createFromLobby(page, setup.server.url, variant, ['me', 'local']);
    if (hidden) {
      await page.locator('#privacy-ready').click();
    }
    await page.locator('main.game[data-seat="0"]').waitFor();
    await clickMove(page, 'e2', 'e4');
    if (hidden) {
      // White sees the move's result first, then passes the device: only then the screen covers.
      await page.locator('#pass-device').click();
      await page.locator('.privacy').waitFor();
      assert.equal(await page.locator('main.game').isVisible(), false);
      await screenshot(page, 'e2e-privacy');
      await page.locator('#privacy-ready').click();
    }
    await page.locator('main.game[data-seat="1"]').waitFor();
    assert.equal(await page.locator('#board.orientation-black').count(), 1);
    await clickMove(page, 'e7', 'e5');
    if (hidden) {
      await page.locator('#pass-device').click();
      await page.locator('#privacy-ready').click();
    }
    await page.locator('main.game[data-seat="0"]').waitFor();
    const log = (await logEntries(page)).join(' ');
    assert.match(log, /e4.*e5/, 'both moves are in the list');
    await screenshot(page, 'e2e-shared-device');
    await context.close();
  });
});

describe('a phone-sized screen', () => {
  test('the board fills the width, the panels follow, and a tap-tap move plays', async () => {
    const { context, page } = await newPage({ width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await createFromLobby(page, setup.server.url, gameAgainstComputer(), ['me', 'computer:level2']);
    await page.locator('.status[data-my-turn="yes"]').waitFor();
    await clickMove(page, 'd2', 'd4');
    await waitForLog(page, 2);
    await page.locator('.status[data-my-turn="yes"]').waitFor();
    const board = (await page.locator('#board').boundingBox())!;
    const panel = (await page.locator('aside.panel').boundingBox())!;
    assert.ok(board.width >= 380 && board.width <= 390, `board width ${board.width}`);
    assert.ok(panel.y >= board.y + board.height, 'the panels come below the board');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await screenshot(page, 'e2e-phone');
    await page.goto(`${setup.server.url}/`);
    await page.locator('button.variant').first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'the lobby fits too');
    await screenshot(page, 'e2e-phone-lobby');
    await context.close();
  });
});
