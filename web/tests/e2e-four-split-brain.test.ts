// Split-Brain Chess with four people in four browsers (issue 26), from the
// lobby to the end, by clicks only: King-side White creates the game and
// invites three friends, who open the links; then every circle is clicked
// (tapped, on the two phones) on the board of the seat that makes it. Both
// teams shuffle a knight out and back twice, so that the start position
// (checker on h8) comes a third time and the referee draws by threefold
// repetition (docs/games/split-brain.md, rulings: "The draws of chess
// apply, claimed by the referee: ... threefold repetition (the same
// position with the checker in the same corner)"). After each first circle
// of a team, no other page shows it (docs/games/split-brain.md: "Nobody
// sees a circle (not even the partner) until both have circled"). The
// long move list stays whole on a desk and on a phone. Screenshots go to
// web/test-results/e2e-four-split-brain-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DESKTOP,
  PHONE,
  type Player,
  type Table,
  closeTable,
  logReachable,
  logStaysScrolledBack,
  outcomeOnEveryPage,
  pageAtVersion,
  screenshotsOfAll,
  seatsToAct,
  tableOfFour,
  touchSquare,
} from './four-seats.ts';
import { requireVariant, screenshot, serverAndBrowser } from './harness.ts';

const setup = serverAndBrowser();

/** White's knight f2-g4 and back, Black's f7-g5 and back, twice: [the chooser's circle, the mover's]. */
const SHUFFLE: [string, string][] = [
  ['f2', 'g4'],
  ['f7', 'g5'],
  ['g4', 'f2'],
  ['g5', 'f7'],
];
const TEAM_MOVES = [...SHUFFLE, ...SHUFFLE];

/** At most this many clicks: two circles a team move. */
const MAX_CLICKS = TEAM_MOVES.length * 2;

/**
 * The other three pages, once they show the game after `circler`'s
 * circle, ring no square and note no circle: only the circler's page does.
 */
async function circleSecret(table: Table, circler: Player, square: string, version: number): Promise<void> {
  await circler.page.locator('#board .marker-circle').waitFor({ timeout: 5_000 });
  assert.match((await circler.page.locator('.notes').textContent()) ?? '', new RegExp(`You circled ${square}`));
  for (const other of table.players.filter(p => p !== circler)) {
    await pageAtVersion(other.page, version);
    assert.equal(await other.page.locator('#board .marker-circle').count(), 0, `seat ${other.seat} sees no ring of seat ${circler.seat}'s circle`);
    const notes = (await other.page.locator('.notes').count()) ? await other.page.locator('.notes').textContent() : '';
    assert.doesNotMatch(notes ?? '', new RegExp(square), `seat ${other.seat}'s notes do not name ${square}`);
  }
}

describe('split-brain, four browsers', () => {
  test('four people from the lobby circle by clicks until the referee draws by threefold repetition; a circle stays secret until both have circled', async t => {
    requireVariant(setup, 'split-brain');
    // Each team has one player at a desk and one on a phone.
    const table = await tableOfFour(setup, 'split-brain', [DESKTOP, PHONE, PHONE, DESKTOP]);
    let teamMove = 0;
    let circledThisMove = 0;
    for (let click = 0; click < MAX_CLICKS; click++) {
      const { version, actors } = await seatsToAct(setup, table);
      assert.equal(actors.length, 2 - circledThisMove, `team move ${teamMove + 1}: both partners circle`);
      const { player, view } = actors[0];
      const [piece, target] = TEAM_MOVES[teamMove];
      const chooser = /^You are the chooser/.test(view.prompt ?? '');
      const square = chooser ? piece : target;
      assert.ok(view.actions.some(a => a.text === `circle ${square}`), `seat ${player.seat} may circle ${square}`);
      await pageAtVersion(player.page, version);
      await touchSquare(player, square);
      await pageAtVersion(player.page, version + 1);
      if (++circledThisMove === 1) {
        await circleSecret(table, player, square, version + 1);
        if (teamMove === 0) await screenshot(player.page, `e2e-four-split-brain-circled-seat${player.seat}`);
      } else {
        circledThisMove = 0;
        teamMove++;
      }
    }
    const outcome = await outcomeOnEveryPage(table);
    assert.match(outcome, /[Dd]raw/);
    assert.match(outcome, /repetition/);
    const { actors } = await seatsToAct(setup, table);
    assert.equal(actors.length, 0, 'nobody has anything left to do');
    const log = await table.players[0].page.locator('.log .entry').allTextContents();
    assert.equal(log.filter(t => /plays/.test(t)).length, TEAM_MOVES.length, `one move a team turn: ${log.join(' | ')}`);
    await screenshotsOfAll(table, 'e2e-four-split-brain-draw');
    try {
      await t.test('the long move list is not cut off: its first and last lines can be scrolled to, on a desk and a phone', async () => {
        for (const player of table.players) await logReachable(player);
      });
      await t.test('a move list scrolled back to its first line stays there when the page draws again', async () => {
        await logStaysScrolledBack(table.players[0], table.id);
      });
    } finally {
      await closeTable(table);
    }
  });
});
