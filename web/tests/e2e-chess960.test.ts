// Chess960 in the browser against the real server (`chesskit serve`), from
// the lobby: the start position laid out by the book's cards ("1 6 N R Q R N
// R", docs/games/chess960.md: bishop, knight, rook, queen, king, bishop,
// knight, rook), the back ranks drawn as the view says, then the book's
// example by clicks: 1.e4 e5 2.Qe2 f6 3.O-O-O, the king taking its own
// rook and ending on c1 with the rook on d1. Black is an open seat whose
// moves the test sends through the API with the seat's invite token.
// Screenshots go to web/test-results/e2e-chess960-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, createFromLobby, pieceAt, screenshot, seatView, serverAndBrowser, settledPieceAt, waitForLog, requireVariant } from './harness.ts';

const setup = serverAndBrowser();

/** The open seat's token, from the invite link the lobby kept for it in this page's localStorage. */
async function inviteToken(page: Page, id: string, seat: number): Promise<string> {
  const path: string = await page.evaluate(
    ([gameId, s]) => JSON.parse(localStorage.getItem(`chesskit:game:${gameId}`) ?? '{}').invites?.find((i: { seat: number }) => i.seat === s)?.path ?? '',
    [id, seat] as const,
  );
  const token = new URL(path, 'http://x').searchParams.get('token');
  assert.ok(token, `an invite for seat ${seat}: ${path}`);
  return token;
}

async function playAs(url: string, id: string, token: string, action: string): Promise<void> {
  const response = await fetch(`${url}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, action }),
  });
  assert.equal(response.status, 200, `${action}: ${await response.text()}`);
}

describe('chess960', () => {
  test('a game from the lobby: the back ranks as the view lays them out, and castling by clicks', async () => {
    requireVariant(setup, 'chess960');
    const context = await setup.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'chess960', ['me', 'open'], async p => {
      await p.locator('[data-option="cards"]').fill('1 6 N R Q R N R');
    });

    // The view's start position, and the board drawing the same back ranks.
    const view = await seatView(setup.server.url, page, id);
    const at = (square: string) => view.board!.squares.find(s => s.square === square)?.piece;
    const files = [...'abcdefgh'];
    const white = files.map(f => at(`${f}1`)).map(p => `${p?.colour} ${p?.role}`);
    assert.deepEqual(
      white,
      ['bishop', 'knight', 'rook', 'queen', 'king', 'bishop', 'knight', 'rook'].map(r => `white ${r}`),
      'the book: bishop, knight, rook, queen, king, bishop, knight, rook',
    );
    for (const [i, f] of files.entries()) {
      assert.equal(await pieceAt(page, `${f}1`), white[i], `${f}1 drawn as the view says`);
      assert.equal(await pieceAt(page, `${f}8`), white[i].replace('white', 'black'), `${f}8 mirrors ${f}1`);
    }
    await screenshot(page, 'e2e-chess960-start');

    // 1.e4 e5 2.Qe2 f6, White by clicks, Black through the API.
    const black = await inviteToken(page, id, 1);
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, 1);
    await playAs(setup.server.url, id, black, 'e7e5');
    await waitForLog(page, 2);
    await clickMove(page, 'd1', 'e2');
    await waitForLog(page, 3);
    await playAs(setup.server.url, id, black, 'f7f6');
    await waitForLog(page, 4);

    // 3.O-O-O: the king takes its own rook on c1 and ends there, the rook on d1.
    const offered = (await seatView(setup.server.url, page, id)).actions.map(a => a.text);
    assert.ok(offered.includes('e1c1'), `castling offered as the king taking its rook: ${offered.join(' ')}`);
    await clickMove(page, 'e1', 'c1');
    await waitForLog(page, 5);
    assert.equal(await settledPieceAt(page, 'c1', 'white king'), 'white king');
    assert.equal(await settledPieceAt(page, 'd1', 'white rook'), 'white rook');
    assert.equal(await pieceAt(page, 'e1'), null, 'the king left e1');
    const after = await seatView(setup.server.url, page, id);
    assert.equal(after.board!.squares.find(s => s.square === 'c1')?.piece?.role, 'king');
    assert.equal(after.board!.squares.find(s => s.square === 'd1')?.piece?.role, 'rook');
    await screenshot(page, 'e2e-chess960-castled');
    await context.close();
  });
});
