// Issue 26, the table a player sees, against the real `chesskit serve`: the
// lobby, Neighbour's "Stop adding" asked first, and a rematch that reaches
// every seat. Each check runs at a desktop's width (1366x800) and a
// phone's (390x844); screenshots go to web/test-results/ui-table-*.png.
// (The board after a layout change, the end's reason, the move counter:
// ui-table.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFromLobby, screenshot, seatView, serverAndBrowser, skipPageTime, waitForLog } from './harness.ts';
import type { GameInfo } from '../src/types.ts';
import { WIDTHS, actFor, newPage } from './table-page.ts';

const setup = serverAndBrowser();

const summary = async (id: string): Promise<GameInfo> => (await fetch(`${setup.server.url}/api/games/${id}`)).json();

describe('the table a player sees: the lobby and the rematch', () => {
  for (const { name, viewport } of WIDTHS) {
    test(`the lobby: your games on top, games grouped by how many play, options in words, a friend who came is a friend (${name})`, async () => {
      const page = await newPage(setup, viewport);
      await page.clock.install(); // the poll's pause is skipped below, not waited out
      const id = await createFromLobby(page, setup.server.url, 'chess', ['me', 'open']);
      const link = await page.locator('.invite-link[data-seat="1"]').inputValue();
      const friend = await newPage(setup, viewport);
      await friend.goto(link);
      await friend.locator('main.game[data-seat="1"]').waitFor();
      // The friend came: at the page's next poll the seat says so.
      const friendShown = page.locator('.player .seat[data-seat="1"] .kind', { hasText: /^friend$/ });
      await skipPageTime(page, async () => (await friendShown.count()) > 0);
      await friendShown.waitFor({ timeout: 10_000 });
      await friend.context().close();

      await page.goto(`${setup.server.url}/`);
      const mine = page.locator(`.my-game[data-game="${id}"]`);
      await mine.locator('.my-when').waitFor();
      assert.equal(await mine.locator('.my-opponents').textContent(), 'against Black (friend)');
      const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
      assert.ok((await top('.my-games')) < (await top('.variants')), '"Your games" comes before the list of games');
      const headings = await page.locator('.variant-group h3').allTextContents();
      assert.deepEqual(headings, ['Solitaires: one player', 'Two players', 'Four players']);
      const inGroup = (players: number) =>
        page.locator(`.variant-group[data-players="${players}"] button.variant`).evaluateAll(els => els.map(e => e.getAttribute('data-variant')));
      assert.ok((await inGroup(1)).includes('parade'));
      assert.ok((await inGroup(4)).includes('crowded-house'));
      const two = await inGroup(2);
      assert.equal(two[0], 'chess', 'the two-player games, the settled ones first');
      const experimental = await page
        .locator('.variant-group[data-players="2"] button.variant')
        .evaluateAll(els => els.map(e => !!e.querySelector('.badge:not(.secret)')));
      assert.deepEqual(experimental, [...experimental].sort(), 'the experimental games after the others, each marked');
      assert.equal(await page.locator('button.variant[data-variant="golf"] .variant-players').textContent(), '1 to 8 players');

      await page.locator('button.variant[data-variant="golf"]').click();
      assert.equal(await page.locator('label[for="opt-players"]').textContent(), 'Number of players');
      assert.equal(await page.locator('label[for="opt-max_cards"]').textContent(), 'Most cards dealt for a hole');
      await page.locator('button.variant[data-variant="cooperative2"]').click();
      assert.doesNotMatch((await page.locator('section.new-game').textContent()) ?? '', /players=1/);
      await screenshot(page, `ui-table-lobby-${name}`);
      await page.context().close();
    });

    test(`Neighbour: "Stop adding" says what stopping means and asks first (${name})`, async () => {
      const page = await newPage(setup, viewport);
      const id = await createFromLobby(page, setup.server.url, 'neighbour', ['me']);
      await page.locator('button.action[data-action="add"]').click();
      await page.locator('main.game[data-version="1"]').waitFor();
      await page.locator('button.action[data-action="stop"]').click();
      const ask = page.locator('section.actions .confirm');
      await ask.waitFor();
      assert.match((await ask.textContent()) ?? '', /Stop adding with 1 piece on the board\? No piece is added again/);
      assert.match((await ask.textContent()) ?? '', /ends the game at once with 0 points: no piece can move/);
      await screenshot(page, `ui-table-neighbour-stop-${name}`);
      assert.equal((await seatView(setup.server.url, page, id)).outcome, undefined, 'nothing sent yet');
      await page.locator('button[data-cancel="stop"]').click();
      assert.equal(await ask.count(), 0);
      await page.locator('button.action[data-action="stop"]').click();
      await page.locator('button[data-confirm="stop"]').click();
      await page.locator('.status .outcome').waitFor();
      assert.equal(await page.locator('.status .outcome-reason').textContent(), 'No piece can move.');
      await page.context().close();
    });
  }

  test('a rematch reaches everyone at the table: each seat takes its own seat, colours swapped (desktop and phone)', async () => {
    const mine = await newPage(setup, WIDTHS[0].viewport);
    const id = await createFromLobby(mine, setup.server.url, 'chess', ['me', 'open']);
    const link = await mine.locator('.invite-link[data-seat="1"]').inputValue();
    const friend = await newPage(setup, WIDTHS[1].viewport);
    await friend.clock.install(); // the rematch poll's pause is skipped below, not waited out
    await friend.goto(link);
    await friend.locator('main.game[data-seat="1"]').waitFor();
    await actFor(setup, mine, id, 0, 'e4');
    // Resign once the page has e4, so the end is what the friend's page hears next.
    await waitForLog(mine, 1);
    await mine.locator('button[data-session="resign"]').click();
    await mine.locator('button[data-confirm="resign"]').click();
    await friend.locator('.status .outcome').waitFor();

    await mine.locator('#rematch').click();
    await mine.waitForURL(url => url.pathname.startsWith('/play/') && !url.pathname.endsWith(id));
    await mine.locator('main.game[data-seat="1"]').waitFor();
    const next = new URL(mine.url()).pathname.split('/').pop()!;
    assert.equal((await summary(id)).rematch, next);

    // The friend's page offers the rematch, and takes the friend to their own seat in it.
    const offered = friend.locator('section.end[data-rematch="started"] #rematch');
    await skipPageTime(friend, async () => (await offered.count()) > 0);
    await offered.waitFor({ timeout: 15_000 });
    assert.equal(await friend.locator('#rematch').textContent(), 'Join the rematch');
    await screenshot(friend, 'ui-table-rematch-offered-phone');
    await friend.locator('#rematch').click();
    await friend.waitForURL(url => url.pathname.endsWith(next));
    await friend.locator('main.game[data-seat="0"]').waitFor();
    await screenshot(friend, 'ui-table-rematch-joined-phone');
    await screenshot(mine, 'ui-table-rematch-desktop');

    // Each page holds its own seat's token only.
    const mineTokens = await mine.evaluate(g => JSON.parse(localStorage.getItem(`chesskit:game:${g}`) ?? '{}').tokens, next);
    const friendTokens = await friend.evaluate(g => JSON.parse(localStorage.getItem(`chesskit:game:${g}`) ?? '{}').tokens, next);
    assert.deepEqual(Object.keys(mineTokens), ['1']);
    assert.deepEqual(Object.keys(friendTokens), ['0']);
    await friend.locator('.status[data-my-turn="yes"]').waitFor();
    await mine.context().close();
    await friend.context().close();
  });
});
