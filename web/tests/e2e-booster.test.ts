// Booster Chess in the browser against the real server (`chesskit serve`),
// from the lobby: a move by clicking, then a card played to add a checker
// under a piece by clicking its square; the checker drawn on the board, the
// own hand's faces and only the count of the opponent's hand in the view.
// Screenshots go to web/test-results/e2e-booster-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  clickMove,
  clickSquare,
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

const myView = (page: Page, id: string) => seatView(setup.server.url, page, id);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 20_000 });

describe('booster', () => {
  test('a move and a card played from the lobby, the checker drawn, the hands hidden', async () => {
    const info = requireVariant(setup, 'booster');
    assert.equal(info.experimental, true, 'offered as experimental');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'booster', ['me', 'computer:random']);

    // Hands: six faces of my own, only the count of Black's.
    await myTurn(page);
    let view = await myView(page, id);
    const mine = (view.zones ?? []).find(z => z.name === 'White hand')!;
    const theirs = (view.zones ?? []).find(z => z.name === 'Black hand')!;
    assert.equal(mine.cards.length, 6);
    assert.equal(theirs.cards.length, 0);
    assert.equal(theirs.hidden, 6);
    await screenshot(page, 'e2e-booster-start');

    // The move, by clicking.
    let before = (await logEntries(page)).length;
    await clickMove(page, 'e2', 'e4');
    await waitForLog(page, before + 1);

    // Then a card: pick a square only one card can go to, and click it.
    await myTurn(page);
    view = await myView(page, id);
    const plays = view.actions.filter(a => a.text.startsWith('play '));
    assert.ok(plays.length >= 1, 'some card can be played');
    assert.ok(plays.every(a => a.square), 'each card play names its square');
    const unique = plays.find(a => plays.filter(b => b.square === a.square).length === 1);
    assert.ok(unique, 'some square takes exactly one card');
    before = (await logEntries(page)).length;
    await clickSquare(page, unique.square!);
    await waitForLog(page, before + 1);
    assert.match((await logEntries(page)).join(' '), /plays the .* adds a white checker/);

    // The checker is in the view and drawn on the board, unless the computer
    // (Black, moving at once) has since played a card on the same square:
    // opposite checkers cancel in pairs, and the log then says so.
    view = await myView(page, id);
    const log = view.log.map(entry => entry.text).join('\n');
    const cancelled = new RegExp(`adds a black checker under the \\w+ \\w+ on ${unique.square}`).test(log);
    const stacks = view.board!.squares.filter(s => s.markers?.some(m => m.kind === 'checkers'));
    if (!cancelled) {
      assert.ok(stacks.length >= 1, `the checker is on the board:\n${log}`);
      assert.ok((await drawnCount(page, '#board g.marker-checkers', { atLeast: 1 })) >= 1, 'the stack is drawn');
    }
    await screenshot(page, 'e2e-booster-checker');
    await context.close();
  });
});
