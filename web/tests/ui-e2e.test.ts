// Issue 8 against the real `chesskit serve`: no page asks for a missing file
// (the favicon), the news line says the computer's answer beside the board,
// "Your games" describes a game from GET /api/games/{id}, and, once the
// server offers the table actions of docs/api.md, resigning from the page
// ends the game and "Rematch" starts the next one with colours swapped.
// Screenshots go to web/test-results/ui-e2e-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type RequestWatch, clickMove, screenshot, serverAndBrowser, waitForLog, seatView, watchRequests } from './harness.ts';

const setup = serverAndBrowser();

/** A page that records every answer of 400 or more. */
async function newPage(viewport = { width: 1366, height: 800 }): Promise<{ page: Page; missing: string[]; requests: RequestWatch }> {
  const phone = viewport.width < 700;
  const context = await setup.browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
  const page = await context.newPage();
  const missing: string[] = [];
  page.on('response', r => {
    if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  page.on('pageerror', e => console.log(`page error: ${e.message}`));
  return { page, missing, requests: watchRequests(page) };
}

async function createChess(page: Page): Promise<string> {
  await page.goto(`${setup.server.url}/`);
  await page.locator('button.variant[data-variant="chess"]').click();
  await page.locator('select[data-seat="1"]').selectOption('computer:random');
  await page.locator('#create').click();
  await page.waitForURL(/\/play\/[^?]+$/);
  await page.locator('main.game[data-version]').waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

const myView = (page: Page, id: string, seat = 0) => seatView(setup.server.url, page, id, seat);

describe('against the real server', () => {
  test('no missing files (the favicon is served); the computer’s answer is said beside the board; "Your games" in words', async () => {
    const { page, missing, requests } = await newPage();
    const id = await createChess(page);
    const icon = await page.evaluate(async () => {
      const r = await fetch(document.querySelector('link[rel="icon"]')!.getAttribute('href')!);
      return { status: r.status, type: r.headers.get('content-type') };
    });
    assert.deepEqual(icon, { status: 200, type: 'image/svg+xml' });

    await page.locator('.status[data-my-turn="yes"]').waitFor();
    await clickMove(page, 'e2', 'e4');
    const log = await waitForLog(page, 2);
    await page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 15_000 });
    await page.locator('.news .news-item[data-seat="1"]').waitFor();
    assert.equal(await page.locator('.news .news-item[data-seat="1"]').textContent(), `Black: ${log[1]}`);
    await screenshot(page, 'ui-e2e-news-desktop');

    await page.goto(`${setup.server.url}/`);
    const game = page.locator(`.my-game[data-game="${id}"]`);
    await game.locator('.my-when').waitFor();
    assert.equal(await game.getAttribute('data-state'), 'yours');
    assert.equal(await game.locator('.my-title').textContent(), 'Chess');
    assert.equal(await game.locator('.my-opponents').textContent(), 'against Black (computer, random moves)');
    assert.equal(await game.locator('.my-turn').textContent(), 'Your turn');
    assert.match((await game.locator('.my-when').textContent()) ?? '', /^(last move just now · )?started just now$/);
    await screenshot(page, 'ui-e2e-lobby-desktop');
    await requests.quiet();
    assert.deepEqual(missing, []);
    await page.context().close();
  });

  test('resign from the page, then a rematch with colours swapped (when the server offers table actions)', async () => {
    const { page, missing, requests } = await newPage({ width: 390, height: 844 });
    const id = await createChess(page);
    assert.ok((await myView(page, id)).session_actions?.includes('resign'), 'the server offers no table actions (docs/api.md): resign is missing');
    await page.locator('button[data-session="resign"]').click();
    await page.locator('button[data-confirm="resign"]').click();
    await page.locator('.status .outcome').waitFor();
    assert.equal(await page.locator('.status .outcome').textContent(), 'Black wins (resignation)');
    await screenshot(page, 'ui-e2e-resigned-phone');
    await page.locator('#rematch').click();
    await page.waitForURL(url => !url.pathname.endsWith(id) && url.pathname.startsWith('/play/'));
    await page.locator('main.game[data-seat="1"]').waitFor();
    const next = new URL(page.url()).pathname.split('/').pop()!;
    const info = await (await fetch(`${setup.server.url}/api/games/${next}`)).json();
    assert.deepEqual(
      info.seats.map((s: { kind: string }) => s.kind),
      ['computer:random', 'human'],
    );
    await requests.quiet();
    assert.deepEqual(missing, []);
    await page.context().close();
  });

  test('a draw offered to a friend, accepted on the friend’s page; a game whose friend never came, aborted (when the server offers table actions)', async () => {
    const { page: mine, missing, requests } = await newPage();
    await mine.goto(`${setup.server.url}/`);
    await mine.locator('button.variant[data-variant="chess"]').click();
    await mine.locator('select[data-seat="1"]').selectOption('open');
    await mine.locator('#create').click();
    await mine.waitForURL(/\/play\/[^?]+$/);
    const id = new URL(mine.url()).pathname.split('/').pop()!;
    await mine.locator('main.game[data-version]').waitFor();
    assert.ok((await myView(mine, id)).session_actions?.includes('abort'), 'the server offers no table actions (docs/api.md): abort is missing');
    const link = await mine.locator('.invite-link[data-seat="1"]').inputValue();

    // The friend comes; White offers a draw; the friend sees it and accepts.
    const { page: friend } = await newPage({ width: 390, height: 844 });
    await friend.goto(link);
    await friend.locator('main.game[data-seat="1"]').waitFor();
    await mine.locator('button[data-session="offer draw"]').click();
    await mine.locator('.draw-offer').waitFor();
    await friend.locator('.draw-offer').waitFor();
    assert.equal(await friend.locator('.draw-offer').textContent(), 'White offers a draw. Accept or decline?');
    await screenshot(friend, 'ui-e2e-draw-offer-phone');
    await friend.locator('button[data-session="accept draw"]').click();
    await mine.locator('.status .outcome').waitFor();
    assert.equal(await mine.locator('.status .outcome').textContent(), 'Draw agreed');
    assert.equal(await friend.locator('.status .outcome').textContent(), 'Draw agreed');
    await friend.context().close();

    // A second game: the friend never comes, so White may abort it.
    await mine.goto(`${setup.server.url}/`);
    await mine.locator('button.variant[data-variant="chess"]').click();
    await mine.locator('select[data-seat="1"]').selectOption('open');
    await mine.locator('#create').click();
    await mine.waitForURL(url => url.pathname.startsWith('/play/') && !url.pathname.endsWith(id));
    await mine.locator('button[data-session="abort"]').click();
    await mine.locator('button[data-confirm="abort"]').click();
    await mine.locator('.status .outcome').waitFor();
    assert.equal(await mine.locator('.status .outcome').textContent(), 'Game aborted: no winner');
    await screenshot(mine, 'ui-e2e-aborted-desktop');
    await requests.quiet();
    assert.deepEqual(missing, []);
    await mine.context().close();
  });
});
