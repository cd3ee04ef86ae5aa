// Crowded House with four people in four browsers (issue 26), from the
// lobby to the end, by clicks only: King-side White creates the game and
// invites three friends, who open the links; then each move is clicked on
// the page of the seat to move, two of them on a phone by taps, until
// King-side White is checkmated by the fool's mate (docs/games/
// crowded-house.md: "A player is checkmated when every move they have, or
// their pass, leaves their king where the next player could capture it").
// Screenshots go to web/test-results/e2e-four-crowded-house-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DESKTOP,
  PHONE,
  closeTable,
  endOnEveryPage,
  logReachable,
  pageAtVersion,
  seatsToAct,
  tableOfFour,
  touchMove,
} from './four-seats.ts';
import { requireVariant, serverAndBrowser, waitForLog } from './harness.ts';

const setup = serverAndBrowser();

/**
 * The fool's mate for four: after Qd8-h4 (King-side Black may play it: it
 * ends on the king side) the queen-side players move their a-pawns, and
 * King-side White, to move before King-side Black, has no move that keeps
 * the king from Qxe1. Each move with the seat that must make it.
 */
const FOOLS_MATE: [number, string, string][] = [
  [0, 'f2', 'f3'],
  [1, 'e7', 'e5'],
  [2, 'a2', 'a3'],
  [3, 'a7', 'a6'],
  [0, 'g2', 'g4'],
  [1, 'd8', 'h4'],
  [2, 'a3', 'a4'],
  [3, 'a6', 'a5'],
];

describe('crowded house, four browsers', () => {
  test('four people from the lobby play by clicks until king-side White is checkmated (when every move leaves the king capturable)', async t => {
    requireVariant(setup, 'crowded-house');
    // Each team has one player at a desk and one on a phone.
    const table = await tableOfFour(setup, 'crowded-house', [DESKTOP, PHONE, PHONE, DESKTOP]);
    for (const [i, [seat, from, to]] of FOOLS_MATE.entries()) {
      const { version, actors } = await seatsToAct(setup, table);
      assert.deepEqual(actors.map(a => a.player.seat), [seat], `move ${i + 1} is seat ${seat}'s`);
      const { player, view } = actors[0];
      assert.ok(view.actions.some(a => a.from === from && a.to === to), `${from}-${to} is among seat ${seat}'s moves`);
      await pageAtVersion(player.page, version);
      await player.page.locator('.status[data-my-turn="yes"]').waitFor();
      await touchMove(player, from, to);
      await waitForLog(player.page, i + 1);
    }
    const outcome = await endOnEveryPage(setup, table, 'e2e-four-crowded-house-mate');
    assert.match(outcome, /Black/);
    assert.match(outcome, /checkmate/);
    try {
      await t.test('the move list is not cut off: its first and last lines can be scrolled to, on a desk and a phone', async () => {
        for (const player of table.players) await logReachable(player);
      });
    } finally {
      await closeTable(table);
    }
  });
});
