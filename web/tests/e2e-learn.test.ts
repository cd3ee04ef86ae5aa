// Learn by playing (docs/web.md) in the browser against the real server:
// a game's page opens with the rules in a few lines and the book's worked
// examples as small boards. Each example here is tried by clicks, as a
// player would, and the referee (the server) answers as the book does:
// Gravity's falling order, a Parade order between two squares the ordering
// piece attacks, the Adrenaline checkmate, Zombie's rising (both sides
// move: the board turns to the side to act). At 1366x800 and 390x844;
// screenshots go to web/test-results/e2e-learn-*.png.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { VariantInfo } from '../src/types.ts';
import { RESULTS, boardAtRest, clickMove, clickSquare, requireVariant, serverAndBrowser } from './harness.ts';

const setup = serverAndBrowser();

const SIZES = [
  { width: 1366, height: 800 },
  { width: 390, height: 844 },
];

/** A new game of `variant` made over the API, its page open for its first seat; the examples loaded. */
async function gamePage(variant: string, viewport: { width: number; height: number }): Promise<Page> {
  const reply = await fetch(`${setup.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant }),
  });
  assert.equal(reply.status, 201, await reply.clone().text());
  const game = await reply.json();
  const context = await setup.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  await page.goto(`${setup.server.url}/play/${game.id}?token=${game.seats[0].token}`);
  await page.locator('section.learn').waitFor();
  return page;
}

const exampleCard = (page: Page, title: string): Locator => page.locator(`article.example[data-title="${title}"]`);

const boardOf = (title: string) => `article.example[data-title="${title}"] .example-board`;

/** The referee's answer on an example, once it has this verdict. */
async function answer(card: Locator, verdict: string): Promise<string> {
  const line = card.locator(`p.answer[data-verdict="${verdict}"]`);
  await line.waitFor({ timeout: 10_000 });
  return (await line.textContent()) ?? '';
}

/**
 * A picture of the example `title` as the player sees it, named by the test and the width, taken
 * once its board stands still (chessground's move animation done) rather than after a fixed pause.
 */
async function shoot(page: Page, title: string, name: string, width: number): Promise<void> {
  await mkdir(RESULTS, { recursive: true });
  const card = exampleCard(page, title);
  await card.scrollIntoViewIfNeeded();
  await boardAtRest(page, boardOf(title));
  await card.screenshot({ path: join(RESULTS, `e2e-learn-${name}-${width}.png`) });
}

/** The page of a new game of `variant` shows the rules in a few lines and every book example the server has for it, as boards. */
async function assertExamplesShown(variant: VariantInfo): Promise<void> {
  const examples = await (await fetch(`${setup.server.url}/api/variants/${variant.name}/examples`)).json();
  if (examples.length === 0) return;
  const page = await gamePage(variant.name, SIZES[0]);
  assert.equal(await page.locator('section.learn p.summary').textContent(), variant.summary);
  const cards = page.locator('section.learn article.example');
  await cards.first().waitFor();
  const titles = await cards.evaluateAll(els => els.map(e => (e as HTMLElement).dataset.title));
  assert.deepEqual(titles, examples.map((e: { title: string }) => e.title), variant.name);
  assert.equal(await page.locator('section.learn .example-board cg-board').count(), examples.length);
  await page.context().close();
}

describe('learn by playing', () => {
  for (const size of SIZES) {
    test(`Gravity's falling order, tried by clicks, answered as the book says (${size.width}x${size.height})`, async () => {
      requireVariant(setup, 'gravity');
      const page = await gamePage('gravity', size);
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
      const page = await gamePage('parade', size);
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
      const page = await gamePage('adrenaline', size);
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
      const page = await gamePage('zombie', size);
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

  test("Masquerade: Bob's assignment in the picture, then Alice's knight captures like a queen", async () => {
    requireVariant(setup, 'masquerade');
    const page = await gamePage('masquerade', SIZES[0]);
    const title = "Bob fills in Alice's table";
    const card = exampleCard(page, title);
    for (const [piece, capture] of ['KR', 'QK', 'RN', 'BB', 'NQ']) {
      await card.locator(`button.mq-piece[data-piece="${piece}"]`).click();
      await card.locator(`button.mq-capture[data-capture="${capture}"]`).click();
    }
    await card.locator('button.confirm').click();
    assert.match(await answer(card, 'continue'), /accepts the move/);
    await page.locator(`${boardOf(title)}.orientation-white`).waitFor({ timeout: 5_000 });
    await clickMove(page, 'd4', 'd7', boardOf(title));
    assert.match(await answer(card, 'correct'), /^Correct: the knight captures like a queen/);
    await shoot(page, title, 'masquerade', SIZES[0].width);
    await page.context().close();
  });

  test('a move the book does not make gets the referee’s answer, and the board is set up again', async () => {
    requireVariant(setup, 'gravity');
    const page = await gamePage('gravity', SIZES[0]);
    const title = 'The falling order';
    const card = exampleCard(page, title);
    await clickMove(page, 'e7', 'd6', boardOf(title));
    assert.match(await answer(card, 'different'), /accepts e7d6, but the book's example plays e7f6/);
    await clickMove(page, 'e7', 'f6', boardOf(title));
    assert.match(await answer(card, 'continue'), /accepts the move/);
    await page.context().close();
  });

  test('every game with book examples shows them under the rules in a few lines', async () => {
    for (const variant of setup.variants) await assertExamplesShown(variant);
    const page = await gamePage('chess', SIZES[0]);
    assert.ok(await page.locator('section.learn p.summary').isVisible(), 'the rules in a few lines, always');
    assert.equal(await page.locator('section.learn details.examples').isVisible(), false, 'the books give chess no example');
    await page.context().close();
  });
});
