// Views as changes, in the browser against the real server: after each
// action the socket sends only the change since the version the page holds
// (the new log entries, the rest of the view whole). The page catches up
// from the version it holds when its socket comes back (`?since=V`) and
// when it finds a gap (a change from a version it does not hold: it asks
// the socket to `sync`), and ends with the same log as a fresh load.
// The test stands between the page and the server's socket, so it can cut
// the connection and lose a message.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WebSocketRoute } from 'playwright-core';
import { clickMove, logEntries, serverAndBrowser } from './harness.ts';

const setup = serverAndBrowser();

interface Created {
  id: string;
  seats: { token?: string }[];
}

async function act(url: string, id: string, token: string, action: string): Promise<void> {
  const response = await fetch(`${url}/api/games/${id}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, action }),
  });
  assert.equal(response.status, 200, await response.text());
}

describe('catching up', () => {
  test('after a reconnection and after a lost change, the page holds the whole log', async () => {
    const url = setup.server.url;
    const created: Created = await (
      await fetch(`${url}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ variant: 'chess', seats: ['human', 'human'] }),
      })
    ).json();
    const { id } = created;
    const [white, black] = created.seats.map(s => s.token!);

    const context = await setup.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const opened: string[] = []; // the page's socket addresses
    const asked: string[] = []; // what the page sent on its socket
    const types: string[] = []; // the types of the messages the page got
    let pageSide: WebSocketRoute | undefined;
    let serverSide: WebSocketRoute | undefined;
    let loseNextChange = false;
    await context.routeWebSocket(/\/api\/games\/.*\/ws/, ws => {
      opened.push(ws.url());
      const server = ws.connectToServer();
      pageSide = ws;
      serverSide = server;
      server.onMessage(message => {
        const text = String(message);
        if (loseNextChange && text.includes('"type":"change"')) {
          loseNextChange = false;
          return;
        }
        types.push(JSON.parse(text).type);
        ws.send(message);
      });
      ws.onMessage(message => {
        asked.push(String(message));
        server.send(message);
      });
    });
    const page = await context.newPage();
    page.on('pageerror', e => console.log(`page error: ${e.message}`));
    await page.goto(`${url}/play/${id}?token=${white}`);
    await page.locator('main.game[data-version="0"]').waitFor();

    await clickMove(page, 'e2', 'e4');
    await page.locator('main.game[data-version="1"]').waitFor();
    await act(url, id, black, 'e5');
    await page.locator('main.game[data-version="2"]').waitFor();
    assert.ok(types.includes('change'), `the socket sends changes: ${types}`);

    // The connection drops; two moves are made meanwhile.
    pageSide!.close();
    serverSide!.close();
    await page.locator('.messages .offline').waitFor();
    await act(url, id, white, 'Nf3');
    await act(url, id, black, 'Nc6');
    await page.locator('main.game[data-version="4"]').waitFor({ timeout: 15_000 });
    assert.ok(opened.length >= 2 && opened[opened.length - 1].includes('since=2'), `reconnected from 2: ${opened}`);

    // A change is lost: the next one is from a version the page lacks.
    loseNextChange = true;
    await act(url, id, white, 'Bc4');
    await act(url, id, black, 'Nf6');
    await page.locator('main.game[data-version="6"]').waitFor({ timeout: 15_000 });
    assert.ok(asked.includes(JSON.stringify({ type: 'sync', version: 4 })), `asked to catch up from 4: ${asked}`);

    const caughtUp = await logEntries(page);
    const fresh = await context.newPage();
    await fresh.goto(`${url}/play/${id}`);
    await fresh.locator('main.game[data-version="6"]').waitFor();
    assert.deepEqual(caughtUp, await logEntries(fresh), 'the same log as a first load');
    assert.equal(caughtUp.join(' ').match(/Nf6/g)?.length, 1, `each move once: ${caughtUp}`);
    await context.close();
  });
});
