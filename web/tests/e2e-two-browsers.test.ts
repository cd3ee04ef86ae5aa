// The client against the real server (`chesskit serve`): two browsers
// playing one game through an invite link (and the creator's page seeing
// the friend join), and the special moves on the board (a promotion's
// picker, castling by dragging). Screenshots go to web/test-results/.
// (Against the computer, the rules panel, Zombie's burials, one device
// shared, a phone: e2e.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { clickMove, createFromLobby, dragMove, logEntries, newContextPage, screenshot, serverAndBrowser, settledPieceAt, skipPageTime, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

const newPage = (viewport = { width: 1200, height: 860 }, extra = {}) => newContextPage(setup.browser, { viewport, ...extra });

describe('two browsers, one game', () => {
  test('a friend joins by the invite link and both play until checkmate', async () => {
    const white = await newPage();
    await white.page.clock.install(); // the join poll's pause is skipped below, not waited out
    const id = await createFromLobby(white.page, setup.server.url, 'chess', ['me', 'open']);
    const invite = await white.page.locator('.invite-link[data-seat="1"]').inputValue();
    assert.match(invite, new RegExp(`^${setup.server.url}/play/${id}\\?token=[A-Za-z0-9_-]{20,}$`));
    assert.equal(await white.page.locator('.player.top .kind').textContent(), 'invited friend');
    await screenshot(white.page, 'e2e-invite');

    assert.equal(await white.page.locator('.invites .local-link').count(), 1, 'a link to 127.0.0.1 works only here: the page says so');

    const black = await newPage({ width: 1000, height: 800 });
    await black.page.goto(invite);
    await black.page.locator('main.game[data-seat="1"]').waitFor();
    // The creator's page learns that Black came (at its next poll), and puts the link away.
    const joined = white.page.locator('.invites .joined[data-seat="1"]');
    await skipPageTime(white.page, async () => (await joined.count()) > 0);
    await joined.waitFor({ timeout: 10_000 });
    assert.equal(await white.page.locator('.invites .joined').textContent(), 'Black has joined');
    assert.equal(await white.page.locator('.invite-link').count(), 0);
    assert.equal(await white.page.locator('.player.top .kind').textContent(), 'friend');
    await screenshot(white.page, 'e2e-joined');
    assert.equal(new URL(black.page.url()).search, '', 'the token leaves the address bar');
    assert.equal(await black.page.locator('#board.orientation-black').count(), 1, 'Black sees the board from Black’s side');
    assert.equal(await black.page.locator('.status .turn').textContent(), 'Waiting for White');

    // Scholar's mate, White by dragging, Black by clicking, each seeing the other's moves live.
    const moves: [Page, string, string, string][] = [
      [white.page, 'e2', 'e4', 'e4'],
      [black.page, 'e7', 'e5', 'e5'],
      [white.page, 'f1', 'c4', 'Bc4'],
      [black.page, 'b8', 'c6', 'Nc6'],
      [white.page, 'd1', 'h5', 'Qh5'],
      [black.page, 'g8', 'f6', 'Nf6'],
      [white.page, 'h5', 'f7', 'Qxf7#'],
    ];
    for (const [i, [page, from, to, san]] of moves.entries()) {
      await page.locator('.status[data-my-turn="yes"]').waitFor();
      if (page === white.page) await dragMove(page, from, to);
      else await clickMove(page, from, to);
      for (const p of [white.page, black.page]) {
        const log = await waitForLog(p, i + 1);
        assert.equal(log[i], san);
      }
    }
    for (const p of [white.page, black.page]) {
      await p.locator('.status .outcome').waitFor();
      assert.equal(await p.locator('.status .outcome').textContent(), 'White wins (checkmate)');
      assert.equal(await p.locator('main.game').getAttribute('data-over'), 'yes');
    }
    assert.equal(await settledPieceAt(black.page, 'f7', 'white queen'), 'white queen');
    // The finished game downloads as PGN.
    const pgnHref = await white.page.locator('.export a', { hasText: 'Download PGN' }).getAttribute('href');
    const pgn = await (await fetch(new URL(pgnHref!, setup.server.url))).text();
    assert.match(pgn, /\[Result "1-0"\]/);
    assert.match(pgn, /1\. e4 e5 2\. Bc4 Nc6 3\. Qh5 Nf6 4\. Qxf7# 1-0/);

    const watcher = await newPage();
    await watcher.page.goto(`${setup.server.url}/play/${id}`);
    await watcher.page.locator('main.game[data-seat="spectator"]').waitFor();
    assert.equal(await watcher.page.locator('.spectating').textContent(), 'You are watching this game.');
    assert.equal(await watcher.page.locator('.status .outcome').textContent(), 'White wins (checkmate)');
    assert.equal((await logEntries(watcher.page)).length, 7);
    await watcher.context.close();
    await screenshot(white.page, 'e2e-two-browsers-white');
    await screenshot(black.page, 'e2e-two-browsers-black');
    await white.context.close();
    await black.context.close();
  });
});

/** Create a game from a position through the API and open White's page. */
async function openPosition(variant: string, position: string): Promise<{ context: BrowserContext; page: Page }> {
  const response = await fetch(`${setup.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant, position, seats: ['human', 'computer'] }),
  });
  const body = await response.text();
  assert.equal(response.status, 201, body);
  const created = JSON.parse(body);
  const opened = await newPage();
  await opened.page.goto(`${setup.server.url}${created.seats[0].invite}`);
  await opened.page.locator('.status[data-my-turn="yes"]').waitFor();
  return opened;
}

describe('special moves on the board', () => {
  test('a promotion asks which piece', async () => {
    const { context, page } = await openPosition('chess', '7k/P7/8/8/8/8/8/K7 w - - 0 1');
    await dragMove(page, 'a7', 'a8');
    await page.locator('.picker button.pick').first().waitFor();
    assert.deepEqual(
      (await page.locator('.picker button.pick').evaluateAll(bs => bs.map(b => b.getAttribute('data-action')))).sort(),
      ['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r'],
    );
    await screenshot(page, 'e2e-promotion');
    await page.locator('.picker button[data-action="a7a8n"]').click();
    const log = await waitForLog(page, 1);
    assert.match(log[0], /^a8=N/);
    assert.equal(await settledPieceAt(page, 'a8', 'white knight'), 'white knight');
    await context.close();
  });

  test('castling by dragging the king two squares', async () => {
    const { context, page } = await openPosition('chess', 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1');
    await dragMove(page, 'e1', 'g1');
    const log = await waitForLog(page, 1);
    assert.equal(log[0], 'O-O');
    assert.equal(await settledPieceAt(page, 'g1', 'white king'), 'white king');
    assert.equal(await settledPieceAt(page, 'f1', 'white rook'), 'white rook');
    await context.close();
  });
});
