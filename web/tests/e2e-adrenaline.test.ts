// Adrenaline Chess in the browser against the real server (`chesskit
// serve`), from the lobby: moves by clicking until a capture, the checker
// placed by clicking the enemy piece, and the checker stack drawn on the
// board. Screenshots go to web/test-results/e2e-adrenaline-*.png.

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

const myView = (page: Page, id: string, seat = 0) => seatView(setup.server.url, page, id, seat);

const myTurn = (page: Page) => page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 20_000 });

describe('adrenaline', () => {
  test('a capture from the lobby, the checker placed by a click, the stack drawn', async () => {
    requireVariant(setup, 'adrenaline');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'adrenaline', ['me', 'computer:random']);

    // Move until a capture is possible, then take it.
    const quiet = ['e2e4', 'd2d4', 'g1f3', 'b1c3', 'f1c4', 'd1f3', 'c1f4'];
    let captured = false;
    for (let turn = 0; turn < 20 && !captured; turn++) {
      await myTurn(page);
      const view = await myView(page, id);
      const enemy = new Set(view.board!.squares.filter(s => s.piece?.colour === 'black').map(s => s.square));
      const capture = view.actions.find(a => a.from && a.to && enemy.has(a.to) && !a.promotion);
      const move = capture ?? view.actions.find(a => quiet.includes(a.text)) ?? view.actions.find(a => a.from && a.to && !a.promotion)!;
      const before = (await logEntries(page)).length;
      await clickMove(page, move.from!, move.to!);
      await waitForLog(page, before + 1);
      captured = !!capture;
    }
    assert.ok(captured, 'a capture came within twenty moves');

    // A capture ends with the adrenaline rush: the prompt asks, the enemy pieces are the choices.
    await myTurn(page);
    let view = await myView(page, id);
    while (view.actions.some(a => a.text === 'stop')) {
      // the capturer took over checkers: stop its extra moves
      await page.locator('button.action[data-action="stop"]').click();
      await myTurn(page);
      view = await myView(page, id);
    }
    assert.match(view.prompt ?? '', /checker under one of your opponent's pieces/);
    const placements = view.actions.filter(a => a.text.startsWith('checker '));
    assert.ok(placements.length >= 1 && placements.every(a => a.square), 'each placement names its square');
    await screenshot(page, 'e2e-adrenaline-rush');
    const target = placements.find(a => a.square === 'e8') ?? placements[0];
    const before = (await logEntries(page)).length;
    await clickSquare(page, target.square!);
    await waitForLog(page, before + 1);
    assert.match((await logEntries(page)).join(' '), /puts a checker under/);

    // The stack is in the view and drawn on the board. Black answers at
    // once, and only an extra move of that very piece would spend it.
    await myTurn(page);
    view = await myView(page, id);
    const stacks = view.board!.squares.filter(s => s.markers?.some(m => m.kind === 'checkers'));
    const spent = view.log.some(e => e.seat === 1 && /extra move/.test(e.text));
    assert.ok(stacks.length >= 1 || spent, 'the checker is on the board');
    for (const s of stacks) assert.equal(s.markers!.find(m => m.kind === 'checkers')!.colour, 'red');
    assert.equal(await drawnCount(page, '#board g.marker-checkers', stacks.length), stacks.length, 'each stack is drawn');
    await screenshot(page, 'e2e-adrenaline-checker');
    await context.close();
  });
});
