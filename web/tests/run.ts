// `npm test`: every test file (or those named: `node --import
// ./tests/register.mjs tests/run.ts tests/e2e.test.ts`), each in its own
// node process as `node --test` runs them, but sharing one `chesskit serve`
// and one Chromium started here once, instead of one of each per file. Each
// file still opens its own browser contexts and makes its own games.
//
// CHESSKIT_TEST_CONCURRENCY sets how many files run at once (default 2:
// the browser files mostly wait on Chromium and the server, see docs/web.md).

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { SHARED_BROWSER, SHARED_SERVER, WEB, launchSharedBrowser, startServer } from './harness.ts';

const TESTS = join(WEB, 'tests');

function testFiles(): string[] {
  const named = process.argv.slice(2);
  if (named.length) return named;
  return readdirSync(TESTS)
    .filter(name => name.endsWith('.test.ts'))
    .sort()
    .map(name => join(TESTS, name));
}

function concurrency(): number {
  const asked = process.env.CHESSKIT_TEST_CONCURRENCY;
  if (asked === undefined) return 2;
  const n = Number(asked);
  if (!Number.isInteger(n) || n < 1) throw new Error(`CHESSKIT_TEST_CONCURRENCY must be a whole number from 1, not "${asked}"`);
  return n;
}

/** Wall time per file, first event to last, printed after the run so slow files stand out. */
class FileTimes {
  private spans = new Map<string, { start: number; end: number }>();

  note(file: string | undefined): void {
    if (!file) return;
    const now = performance.now();
    const span = this.spans.get(file);
    if (span) span.end = now;
    else this.spans.set(file, { start: now, end: now });
  }

  report(): string {
    const rows = [...this.spans].sort(([, a], [, b]) => b.end - b.start - (a.end - a.start));
    return rows.map(([file, { start, end }]) => `# ${((end - start) / 1000).toFixed(1).padStart(6)} s  ${relative(WEB, file)}`).join('\n');
  }
}

async function main(): Promise<void> {
  const files = testFiles();
  const width = concurrency();
  const [server, browser] = await Promise.all([startServer(), launchSharedBrowser()]);
  process.env[SHARED_SERVER] = server.url;
  process.env[SHARED_BROWSER] = browser.wsEndpoint();
  const started = performance.now();
  const times = new FileTimes();
  try {
    const stream = run({ files, concurrency: width });
    stream.on('test:fail', () => (process.exitCode = 1));
    for (const event of ['test:enqueue', 'test:start', 'test:pass', 'test:fail'] as const) {
      stream.on(event, (data: { file?: string }) => times.note(data.file));
    }
    const reporter = process.stdout.isTTY ? stream.compose(new spec()) : stream.compose(tap);
    reporter.pipe(process.stdout);
    await new Promise(done => reporter.on('end', done));
  } finally {
    await browser.close();
    await server.stop();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`# ${files.length} files, ${width} at a time, one server and one Chromium: ${seconds} s\n${times.report()}`);
}

await main();
