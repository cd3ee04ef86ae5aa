// Issue 26 in the browser, against the real server (`chesskit serve`): cards
// named in words drawn as cards (buttons, prompts, the move list, notes), and
// what the book keeps on the table drawn as the book lays it out (the trophy
// track with its coin, the graveyard and dust bin as pieces, the knowledge
// table with piece pictures, the stacked rows). Each game starts from a text
// position through the API; each check runs at 1366x800 and 390x844, and
// its screenshot goes to web/test-results/ui-cards-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { CreatedGame } from '../src/types.ts';
import { screenshot, screenshotOf, serverAndBrowser, requireVariant } from './harness.ts';

const setup = serverAndBrowser();

const SCREENS = [
  ['desktop', { width: 1366, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** A new game on the server, from `position` if given; returns its id and the token of its one "human" seat. */
async function create(
  variant: string,
  seats: string[],
  position?: string,
  options: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  const response = await fetch(`${setup.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant, options, seats, seed: 7, ...(position ? { position } : {}) }),
  });
  assert.equal(response.status, 201, `${variant}: ${await response.clone().text()}`);
  const game: CreatedGame = await response.json();
  return { id: game.id, token: game.seats[seats.indexOf('human')].token! };
}

/**
 * For each screen: the game page of the human seat, handed to `check`, then a screenshot named
 * after the item: of the whole page, or of the part `shown` selects when the whole page is one
 * another item's picture shows already.
 */
async function onEachScreen(item: string, game: { id: string; token: string }, check: (page: Page) => Promise<void>, shown?: string) {
  for (const [name, viewport] of SCREENS) {
    const phone = viewport.width < 700;
    const context = await setup.browser.newContext({ viewport, isMobile: phone, hasTouch: phone, deviceScaleFactor: phone ? 2 : 1 });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    await page.goto(`${setup.server.url}/play/${game.id}?token=${game.token}`);
    await page.locator('main.game[data-version]').waitFor();
    await check(page);
    if (shown) await screenshotOf(page, shown, `ui-cards-${item}-${name}`);
    else await screenshot(page, `ui-cards-${item}-${name}`);
    await context.close();
  }
}

/** The card faces (`data-card`) drawn inside `selector`. */
const chips = (page: Page, selector: string) => page.locator(`${selector} .card-chip`).evaluateAll(els => els.map(e => e.getAttribute('data-card')));

/** Telepathy, Black's predictor to play, the coin beside the black side (docs/games/telepathy.md). */
const TELEPATHY = `rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
phase: predict
trophy track: black side
white predictor: B`;

/** Gravity with stacked pieces on rows 1 and 2, White to add the black bishop of the flipped 9c (docs/games/gravity.md). */
const GRAVITY = `8/8/8/8/8/8/B7/RRrr4 w
white holds: 2s 8s 8c 9s qs ks
black holds: 4h 5h 8h 8d 9d qh kh
flipped: 9c
captured: 3 2`;

/** Zombie Chess after the book's example: a knight and a pawn in the graveyard, a bishop in the dust bin (docs/games/zombie.md). */
const ZOMBIE = `r1bqkbnr/pppp1ppp/2P{z}5/8/3nP3/8/PPP2PPP/RNBQKB1R w KQkq - 0 5
white burials: b2=P
black burials: g7=N
graveyard: N p
dust bin: B`;

/** Masquerade Chess in play, each side's captures assigned (the book's example for White's pieces). */
const MASQUERADE = `4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 0 1
white captures: KR QK RN BB NQ
black captures: KK QQ RR BB NN`;

describe('cards as cards, everywhere', () => {
  test('a card named in a button, a prompt or the move list is drawn as its face, with the piece it stands for', async () => {
    requireVariant(setup, 'telepathy'); requireVariant(setup, 'golf');
    // Buttons: Black's predictor (seat 1, Black A) predicts by card.
    const predictor = await create('telepathy', ['open', 'human', 'open', 'open'], TELEPATHY);
    await onEachScreen('buttons', predictor, async page => {
      const knight = page.locator('button.action', { hasText: 'Predict: knight' });
      await knight.waitFor();
      assert.deepEqual(await chips(page, 'button.action:has-text("Predict: knight")'), ['8s'], 'the knight card on its button');
      assert.equal(await knight.locator('.card-chip').getAttribute('data-piece'), '♞', 'with the piece it stands for');
      assert.equal(await knight.locator('.card-chip').getAttribute('class'), 'card-chip black');
      assert.doesNotMatch((await knight.textContent()) ?? '', /8s/, 'no card code left in words');
    });

    // A prompt: Gravity's "Add the black bishop (9c)".
    const gravity = await create('gravity', ['human', 'open'], GRAVITY);
    await onEachScreen('prompt', gravity, async page => {
      await page.locator('.status .prompt').waitFor();
      assert.match((await page.locator('.status .prompt').textContent()) ?? '', /^Add the black bishop \(9♣\) on the top row/);
      assert.deepEqual(await chips(page, '.status .prompt'), ['9c']);
      assert.equal(await page.locator('.status .prompt .card-chip').getAttribute('data-piece'), '♝');
    });

    // The move list: the golf dealer draws the hole's cards ("draws 10h qs").
    const golf = await create('golf', ['human'], undefined, { players: 1 });
    await onEachScreen('log', golf, async page => {
      const draw = page.locator('.log .entry', { hasText: 'draws' }).first();
      await draw.waitFor();
      const drawn = await chips(page, '.log .entry:has-text("draws")');
      assert.ok(drawn.length >= 2, `the drawn cards as faces: ${drawn}`);
      assert.ok(drawn.every(c => /^(10|[2-9qk])[hdsc]$/.test(c ?? '')), `${drawn}`);
      assert.doesNotMatch((await draw.textContent()) ?? '', /\b(10|[2-9qk])[hdsc]\b/, 'no card code left in words');
    });
  });
});

describe('what the book keeps on the table, drawn', () => {
  test("Telepathy's trophy track is a track with the coin on it", async () => {
    requireVariant(setup, 'telepathy');
    const game = await create('telepathy', ['human', 'open', 'open', 'open'], TELEPATHY);
    await onEachScreen('track', game, async page => {
      const track = page.locator('[data-table="Trophy track"] ol.track');
      await track.waitFor();
      assert.deepEqual(await track.locator('.track-place').evaluateAll(els => els.map(e => e.getAttribute('data-place'))), [
        'White side',
        'Middle',
        'Black side',
      ]);
      assert.equal(await track.locator('.coin').count(), 1, 'one coin');
      assert.equal(await track.locator('.track-place.has-coin').getAttribute('data-place'), 'Black side', 'the coin beside the black side');
      assert.equal(await page.locator('[data-table="Trophy track"] table').count(), 0, 'no table of ● any more');
    });
  });

  test('the Zombie graveyard and dust bin are pieces', async () => {
    requireVariant(setup, 'zombie');
    const game = await create('zombie', ['human', 'open'], ZOMBIE);
    await onEachScreen('graveyard', game, async page => {
      const pieces = (title: string) =>
        page.locator(`[data-table="${title}"] .table-piece`).evaluateAll(els => els.map(e => e.getAttribute('data-piece')));
      await page.locator('[data-table="Graveyard"] .table-piece').first().waitFor();
      assert.deepEqual(await pieces('Graveyard'), ['white knight', 'black pawn']);
      assert.deepEqual(await pieces('Dust bin'), ['white bishop']);
      assert.equal(await page.locator('[data-table="Dust bin"] td.pieces .none').count(), 1, "Black's empty pile says none");
      assert.doesNotMatch((await page.locator('section.tables').textContent()) ?? '', /\bN p\b/, 'no letters left');
    });
  });

  test("Masquerade's knowledge table has piece pictures in its headers and combo column", async () => {
    requireVariant(setup, 'masquerade');
    const game = await create('masquerade', ['human', 'open'], MASQUERADE);
    await onEachScreen('knowledge', game, async page => {
      const own = page.locator('[data-table^="White: your pieces"]');
      await own.locator('.table-piece').first().waitFor();
      assert.deepEqual(await own.locator('th .table-piece').evaluateAll(els => els.map(e => e.getAttribute('data-piece'))), [
        'white king',
        'white queen',
        'white rook',
        'white bishop',
        'white knight',
      ]);
      // The assignment White made of Black's captures: the king captures as a king, drawn as two black kings.
      const assigned = page.locator(`[data-table="Black's captures: your assignment"]`);
      const kingRow = assigned.locator('tbody tr').first();
      assert.deepEqual(await kingRow.locator('td.pieces .table-piece').evaluateAll(els => els.map(e => e.getAttribute('data-piece'))), [
        'black king',
        'black king',
      ]);
      assert.doesNotMatch((await assigned.locator('td.pieces').allTextContents()).join(''), /[KQRBN]{2}/, 'no letter codes left');
    });
  });

  test("Gravity's stacked rows are stacks of each player's pieces, row 8 at the top", async () => {
    requireVariant(setup, 'gravity');
    const game = await create('gravity', ['human', 'open'], GRAVITY);
    await onEachScreen('stacks', game, async page => {
      const stacks = page.locator('[data-table="Score"] .stacks');
      await stacks.waitFor();
      assert.deepEqual(await stacks.locator('.stack-row[data-place]').evaluateAll(els => els.map(e => e.getAttribute('data-place'))), [
        'row 8',
        'row 7',
        'row 6',
        'row 5',
        'row 4',
        'row 3',
        'row 2',
        'row 1',
      ]);
      const count = (place: string, colour: string) =>
        stacks.locator(`.stack-row[data-place="${place}"] .stack[data-colour="${colour}"] .stack-piece`).count();
      assert.deepEqual(
        [await count('row 1', 'white'), await count('row 2', 'white'), await count('row 1', 'black'), await count('row 2', 'black')],
        [2, 1, 2, 0],
        'White: two rooks on row 1 and the bishop on row 2; Black: two rooks on row 1',
      );
    }, '[data-table="Score"]'); // the same game as the prompt's picture: the stacks alone
  });
});
