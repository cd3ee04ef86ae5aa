// Learn by playing (docs/web.md) in the browser against the real server:
// a game's page opens with the rules in a few lines and the book's worked
// examples as small boards; Masquerade's example played on its picture and
// board; a move the book does not make answered by the referee. At
// 1366x800; screenshots go to web/test-results/e2e-learn-*.png. (The
// other examples tried by clicks at both sizes: e2e-learn.test.ts.)

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { VariantInfo } from '../src/types.ts';
import { clickMove, requireVariant, serverAndBrowser } from './harness.ts';
import { SIZES, answer, boardOf, exampleCard, gamePage, shoot } from './learn-page.ts';

const setup = serverAndBrowser();

/** The page of a new game of `variant` shows the rules in a few lines and every book example the server has for it, as boards. */
async function assertExamplesShown(variant: VariantInfo): Promise<void> {
  const examples = await (await fetch(`${setup.server.url}/api/variants/${variant.name}/examples`)).json();
  if (examples.length === 0) return;
  const page = await gamePage(setup, variant.name, SIZES[0]);
  assert.equal(await page.locator('section.learn p.summary').textContent(), variant.summary);
  const cards = page.locator('section.learn article.example');
  await cards.first().waitFor();
  const titles = await cards.evaluateAll(els => els.map(e => (e as HTMLElement).dataset.title));
  assert.deepEqual(titles, examples.map((e: { title: string }) => e.title), variant.name);
  assert.equal(await page.locator('section.learn .example-board cg-board').count(), examples.length);
  await page.context().close();
}

describe('learn by playing: the examples shown', () => {
  test("Masquerade: Bob's assignment in the picture, then Alice's knight captures like a queen", async () => {
    requireVariant(setup, 'masquerade');
    const page = await gamePage(setup, 'masquerade', SIZES[0]);
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
    const page = await gamePage(setup, 'gravity', SIZES[0]);
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
    const page = await gamePage(setup, 'chess', SIZES[0]);
    assert.ok(await page.locator('section.learn p.summary').isVisible(), 'the rules in a few lines, always');
    assert.equal(await page.locator('section.learn details.examples').isVisible(), false, 'the books give chess no example');
    await page.context().close();
  });
});
