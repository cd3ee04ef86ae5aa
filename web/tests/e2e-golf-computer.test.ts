// Chess Golf against the medium computer in the browser (issue 26): the
// computer counts a hole it can demonstrate and demonstrates it, and a
// puzzle round shows no Resign or Offer a draw button. Screenshots go to
// web/test-results/e2e-golf-computer-*.png.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFromLobby, requireVariant, screenshot, seatView, serverAndBrowser } from './harness.ts';

const setup = serverAndBrowser();

describe('chess golf against the computer', () => {
  test('the medium computer demonstrates what it counted; no Resign or Offer a draw', async () => {
    requireVariant(setup, 'golf');
    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    const id = await createFromLobby(page, setup.server.url, 'golf', ['me', 'computer:level4'], async p => {
      await p.locator('[data-option="players"]').fill('2');
    });
    await page.locator('.status[data-my-turn="yes"]').waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('button[data-session="resign"]').count(), 0, 'no Resign in a puzzle round');
    assert.equal(await page.locator('button[data-session="offer draw"]').count(), 0, 'no Offer a draw');

    // Saying "impossible" leaves the demonstration to the computer, which
    // then puts the captured pieces back, and hole 1 is scored.
    await page.locator('button.action[data-action="impossible"]').click();
    // The page hears of each of the computer's steps over its socket: wait for the score, not for a time.
    await page.locator('.log').getByText(/Hole 1 scores/).waitFor({ timeout: 60_000 });
    const log = (await seatView(setup.server.url, page, id, 0)).log.map(e => e.text);
    const line = (start: string) => log.find(l => l.startsWith(start)) ?? '';
    const counted = /Player 2 (\d+)/.exec(line('Counts revealed'));
    assert.ok(counted, `the computer gave a count: ${log.join(' | ')}`);
    const solved = /Player 2 solves the puzzle in (\d+) move/.exec(log.join('\n'));
    assert.ok(solved, `the computer demonstrated its count, no giving up: ${log.join(' | ')}`);
    assert.ok(Number(solved[1]) <= Number(counted[1]), `solved in ${solved[1]} of the ${counted[1]} counted`);
    assert.match(line('Hole 1 scores'), new RegExp(`Player 2 ${counted[1]}$`), 'its count stands as its score');
    assert.equal(await page.locator('button[data-session="resign"]').count(), 0);
    assert.equal(await page.locator('button[data-session="offer draw"]').count(), 0);
    await screenshot(page, 'e2e-golf-computer-hole1');
    await context.close();
  });
});
