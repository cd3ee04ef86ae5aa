// Half Alice Chess in the browser against the real server (`chesskit
// serve`), from the lobby: the 12-checker option, a move that sends the
// pawn through the mirror (a checker and the mirror badge appear under
// it), the computer's answer, a refused move onto a square held on the
// other side, and the rules panel. Screenshots go to
// web/test-results/e2e-half-alice-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  clickMove,
  createFromLobby,
  drawnCount,
  logEntries,
  screenshot,
  seatView,
  requireVariant,
  serverAndBrowser,
  waitForLog,
} from './harness.ts';

const setup = serverAndBrowser();

const myView = (page: Page, id: string, seat = 0) => seatView(setup.server.url, page, id, seat);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 20_000 });

describe('half alice', () => {
  test('a pawn goes through the mirror onto a checker, the computer answers, 12 checkers counted', async () => {
    requireVariant(setup, 'half-alice');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));

    const id = await createFromLobby(page, setup.server.url, 'half-alice', ['me', 'computer:level2'], page =>
      page.locator('[data-option="twelve_checkers"]').check(),
    );
    await myTurn(page);
    assert.equal(await drawnCount(page, '#board .marker-mirror', 0), 0, 'no piece behind the mirror at the start');

    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, 1);
    await page.locator('#board .marker-mirror').first().waitFor();
    await myTurn(page);
    const view = await myView(page, id);
    const e4 = view.board!.squares.find(s => s.square === 'e4')!;
    assert.deepEqual(
      e4.markers?.map(m => m.kind),
      ['checkers', 'mirror'],
      'the pawn on e4 stands on a checker, behind the mirror',
    );
    // The pawn's marker and the computer's piece behind the mirror: two of each.
    assert.equal(await drawnCount(page, '#board .marker-mirror', 2), 2);
    assert.equal(await drawnCount(page, '#board .marker-checkers', 2), 2);
    const caption = page.locator('section.tables caption', { hasText: 'Free checkers' });
    await caption.waitFor();
    assert.match((await page.locator('section.tables').textContent()) ?? '', /white\s*11/);
    console.log(`half-alice: log ${(await logEntries(page)).join(' | ')}`);
    await screenshot(page, 'e2e-half-alice-mirror');

    // The rules panel shows the rules in our words and the rulings.
    await page.locator('details.rules summary').click();
    await page.locator('details.rules .rules-doc h2').first().waitFor();
    const headings = await page.locator('details.rules .rules-doc h2').allTextContents();
    // The player-facing sections come first (docs/api.md: the server sends only these two).
    assert.deepEqual(headings.slice(0, 2), ['The rules in our words', 'Rulings']);
    assert.match((await page.locator('details.rules .rules-doc').textContent()) ?? '', /through the mirror/);
    await screenshot(page, 'e2e-half-alice-rules');
    await context.close();
  });
});
