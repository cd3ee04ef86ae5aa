// Learn by playing (docs/web.md) in the browser against the real server:
// the book's worked examples as small boards, each tried by clicks, as a
// player would, and the referee (the server) answers as the book does:
// Gravity's falling order, a Parade order between two squares the ordering
// piece attacks, the Adrenaline checkmate, Zombie's rising (both sides
// move: the board turns to the side to act). At 1366x800 and 390x844;
// screenshots go to web/test-results/e2e-learn-*.png. (Masquerade's
// example, a move the book does not make, and every game's examples shown:
// e2e-learn-examples.test.ts.)

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RESULTS, clickMove, clickSquare, requireVariant, serverAndBrowser } from './harness.ts';
import { SIZES, answer, boardOf, exampleCard, gamePage, shoot } from './learn-page.ts';

const setup = serverAndBrowser();

describe('learn by playing', () => {
  for (const size of SIZES) {
    test(`Gravity's falling order, tried by clicks, answered as the book says (${size.width}x${size.height})`, async () => {
      requireVariant(setup, 'gravity');
      const page = await gamePage(setup, 'gravity', size);
      await page.screenshot({ path: join(RESULTS, `e2e-learn-gravity-page-${size.width}.png`) });
      const title = 'The falling order';
      const card = exampleCard(page, title);
      assert.match((await card.locator('p.clause').textContent()) ?? '', /bishop first, then the top pawn can also move/);
      await clickMove(page, 'e7', 'f6', boardOf(title));
      assert.match(await answer(card, 'continue'), /accepts the move/);
      await clickMove(page, 'e8', 'e7', boardOf(title));
      const said = await answer(card, 'correct');
      assert.match(said, /^Correct: with the bishop gone from e7 the top pawn can fall to e7.*as the book says\.$/);
      await shoot(page, title, 'gravity', size.width);
      await page.context().close();
    });

    test(`a Parade order between two squares the bishop attacks (${size.width}x${size.height})`, async () => {
      requireVariant(setup, 'parade');
      const page = await gamePage(setup, 'parade', size);
      const title = 'An order from the black bishop';
      const card = exampleCard(page, title);
      await clickMove(page, 'f3', 'g2', boardOf(title));
      // The black king on f2 could give the same order: the board asks which piece gives it.
      const bishop = card.locator('.picker button[data-action="e4:f3-g2"]');
      await bishop.click({ timeout: 5_000 });
      assert.match(await answer(card, 'correct'), /^Correct: the knight is picked up first.*as the book says\.$/);
      await shoot(page, title, 'parade', size.width);
      await page.context().close();
    });

    test(`the Adrenaline checkmate, made by clicks (${size.width}x${size.height})`, async () => {
      requireVariant(setup, 'adrenaline');
      const page = await gamePage(setup, 'adrenaline', size);
      const title = "Checkmate with the opponent's adrenaline";
      const card = exampleCard(page, title);
      await clickMove(page, 'c6', 'c4', boardOf(title));
      assert.match(await answer(card, 'continue'), /accepts the move/);
      await clickSquare(page, 'c1', boardOf(title)); // the third checker under the white bishop
      assert.match(await answer(card, 'correct'), /^Correct: checkmate\. The queen can capture the bishop/);
      await shoot(page, title, 'adrenaline', size.width);
      // "Start again" sets the example up afresh.
      await card.locator('button.again').click();
      assert.equal(await card.locator('p.answer').textContent(), '');
      await page.context().close();
    });

    test(`a Zombie rises: both sides' moves clicked, the board turning to the side to act (${size.width}x${size.height})`, async () => {
      requireVariant(setup, 'zombie');
      const page = await gamePage(setup, 'zombie', size);
      const title = 'A zombie rises';
      const card = exampleCard(page, title);
      const board = boardOf(title);
      assert.match((await card.locator('p.clause').textContent()) ?? '', /If you move off a buried piece/);
      await clickMove(page, 'f3', 'd4', board);
      assert.match(await answer(card, 'continue'), /accepts the move/);
      await clickSquare(page, 'b2', board); // White buries the black pawn under its pawn on b2
      // Black's capture comes next: the board is Black's now.
      await page.locator(`${board}.orientation-black`).waitFor({ timeout: 5_000 });
      await shoot(page, title, 'zombie-black-to-move', size.width);
      await clickMove(page, 'c6', 'd4', board);
      await clickSquare(page, 'g7', board); // Black buries the knight under g7
      assert.match(await answer(card, 'correct'), /^Correct: the knight leaves c6.*rises there as a white zombie.*as the book says\.$/);
      // Black made the last move: the board stays Black's, showing its burial under g7.
      await page.locator(`${board}.orientation-black`).waitFor({ timeout: 5_000 });
      await shoot(page, title, 'zombie', size.width);
      await page.context().close();
    });
  }
});
