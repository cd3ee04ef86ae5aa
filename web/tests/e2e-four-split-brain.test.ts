// Split-Brain Chess with four people in four browsers (issue 26), from the
// lobby to the end, by clicks only: King-side White creates the game and
// invites three friends, who open the links; then every circle is clicked
// (tapped, on the two phones) on the board of the seat that makes it, and
// so are keeping the piece (a button), picking one of equally close moves
// and correcting a tied circle (the board). Both teams shuffle a knight out
// and back twice, so that the start position
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
  endOnEveryPage,
  logReachable,
  logStaysScrolledBack,
  pageAtVersion,
  seatsToAct,
  tableOfFour,
  touchMove,
  touchSquare,
} from './four-seats.ts';
import type { View } from '../src/types.ts';
import { nextFrames, requireVariant, screenshot, serverAndBrowser } from './harness.ts';

const setup = serverAndBrowser();

/**
 * One team move as the table plays it: the chooser's circle, the mover's,
 * and the clicks that finish it when the circles make no legal move.
 */
interface TeamMove {
  piece: string;
  target: string;
  /** The opponents' chooser's button, when the piece cannot reach the target. */
  keep?: 'piece' | 'target';
  /** The move clicked among equally close ones, [from, to]. */
  pick?: [string, string];
  /** The square the opponents' chooser clicks, when an invalid circle has several nearest valid squares. */
  correct?: string;
}

/**
 * White's knight f2-g4 and back, Black's f7-g5 and back, twice. The first
 * two come the long way round, so that every kind of click is made:
 * White circles the knight and f4 (only the pawn f3 reaches it), Black's
 * chooser keeps the piece, and e4 and g4 being equally close to f4 the
 * mover clicks Nf2-g4; Black circles the rook g7, which cannot move, and
 * g6 and f7 being equally near White's chooser clicks f7.
 */
const TEAM_MOVES: TeamMove[] = [
  { piece: 'f2', target: 'f4', keep: 'piece', pick: ['f2', 'g4'] },
  { piece: 'g7', target: 'g5', correct: 'f7' },
  { piece: 'g4', target: 'f2' },
  { piece: 'g5', target: 'f7' },
  { piece: 'f2', target: 'g4' },
  { piece: 'f7', target: 'g5' },
  { piece: 'g4', target: 'f2' },
  { piece: 'g5', target: 'f7' },
];

/** Exactly this many clicks: two circles a team move, and the keep, the pick and the correction. */
const CLICKS = TEAM_MOVES.length * 2 + 3;

/** The team moves made so far, and whether someone has circled in the one under way, as `view`'s log says. */
function progress(view: View): { made: number; circled: boolean } {
  const moves = view.log.map((e, i) => (/ plays /.test(e.text) ? i : -1)).filter(i => i >= 0);
  const sinceMove = view.log.slice((moves.at(-1) ?? -1) + 1);
  return { made: moves.length, circled: sinceMove.some(e => /has circled a square/.test(e.text)) };
}

/** A screenshot of `player`'s page, named by what it shows, the seat and the size. */
const shot = (player: Player, what: string) =>
  screenshot(player.page, `e2e-four-split-brain-${what}-seat${player.seat}-${player.phone ? 'phone' : 'desktop'}`);

/**
 * Click what `view` asks of `player` in team move `move`: a circle on the
 * board, a button, a tied square, or one of equally close moves. Returns
 * the circled square, if it was a circle.
 */
async function clickFor(player: Player, view: View, move: TeamMove): Promise<string | null> {
  const texts = view.actions.map(a => a.text);
  if (texts.some(t => t.startsWith('circle '))) {
    const square = /^You are the chooser/.test(view.prompt ?? '') ? move.piece : move.target;
    assert.ok(texts.includes(`circle ${square}`), `seat ${player.seat} may circle ${square}`);
    await touchSquare(player, square);
    return square;
  }
  if (move.keep && texts.includes(`keep ${move.keep}`)) {
    await shot(player, 'keep');
    await player.page.locator(`button.action[data-action="keep ${move.keep}"]`).click();
    return null;
  }
  if (move.correct && texts.includes(`correct ${move.correct}`)) {
    await shot(player, 'correct');
    await touchSquare(player, move.correct);
    return null;
  }
  assert.ok(move.pick, `seat ${player.seat} is asked ${texts.join(', ')} with nothing planned`);
  const [from, to] = move.pick;
  assert.ok(view.actions.some(a => a.from === from && a.to === to), `seat ${player.seat} may pick ${from}-${to}`);
  await shot(player, 'pick');
  await touchMove(player, from, to);
  return null;
}

/**
 * The other three pages, once they show the game after `circler`'s
 * circle, ring no square and note no circle: only the circler's page does.
 */
async function circleSecret(table: Table, circler: Player, square: string, version: number): Promise<void> {
  await circler.page.locator('#board .marker-circle').waitFor({ timeout: 5_000 });
  assert.match((await circler.page.locator('.notes').textContent()) ?? '', new RegExp(`You circled ${square}`));
  for (const other of table.players.filter(p => p !== circler)) {
    await pageAtVersion(other.page, version);
    await nextFrames(other.page); // chessground draws the markers at its next frame
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
    for (let click = 0; click < CLICKS; click++) {
      const { version, actors } = await seatsToAct(setup, table);
      assert.ok(actors.length > 0, `someone acts at click ${click + 1}`);
      const { player, view } = actors[0];
      const { made, circled } = progress(view);
      await pageAtVersion(player.page, version);
      const square = await clickFor(player, view, TEAM_MOVES[made]);
      await pageAtVersion(player.page, version + 1);
      if (square && !circled) {
        await circleSecret(table, player, square, version + 1);
        if (made < 2) await shot(player, 'circled');
      }
    }
    const outcome = await endOnEveryPage(setup, table, 'e2e-four-split-brain-draw');
    assert.match(outcome, /[Dd]raw/);
    assert.match(outcome, /repetition/);
    const log = await table.players[0].page.locator('.log .entry').allTextContents();
    assert.equal(log.filter(t => /plays/.test(t)).length, TEAM_MOVES.length, `one move a team turn: ${log.join(' | ')}`);
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
