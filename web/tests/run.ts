// `npm test`: every test file (or those named: `node --import
// ./tests/register.mjs tests/run.ts tests/e2e.test.ts`), each in its own
// node process as `node --test` runs them, but sharing one `chesskit serve`
// and one Chromium started here once, instead of one of each per file. Each
// file still opens its own browser contexts and makes its own games.
//
// CHESSKIT_TEST_CONCURRENCY sets how many files run at once (default 3:
// the browser files mostly wait on Chromium and the server, see docs/web.md).

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { SHARED_BROWSER, SHARED_SERVER, WEB, launchSharedBrowser, startServer } from './harness.ts';

const TESTS = join(WEB, 'tests');

/** Each file's seconds in a measured run (see `FileTimes`), the order the runner starts them in. */
const TIMES_FILE = join(TESTS, 'file-times.json');

/**
 * The files named on the command line, else every test file, longest
 * first by the seconds `file-times.json` holds for them: the long ones
 * then run beside the others instead of alone at the end. A file it does
 * not know yet (a new one) counts as the longest, so it starts early.
 */
function testFiles(): string[] {
  const named = process.argv.slice(2);
  if (named.length) return named;
  const files = readdirSync(TESTS)
    .filter(name => name.endsWith('.test.ts'))
    .map(name => join(TESTS, name));
  const known = recordedTimes();
  const seconds = (file: string) => known[relative(WEB, file)] ?? Infinity;
  return files.sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
}

/** The seconds of the last recorded run, by file (relative to web/); none when there is no record. */
function recordedTimes(): Record<string, number> {
  if (!existsSync(TIMES_FILE)) return {};
  try {
    return JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
  } catch (e) {
    throw new Error(`${TIMES_FILE} is not the runner's record of seconds by file (delete it, or run again with CHESSKIT_TEST_RECORD_TIMES=1): ${e}`);
  }
}

function concurrency(): number {
  const asked = process.env.CHESSKIT_TEST_CONCURRENCY;
  // Three paid on the 2-core machine with others' work beside it at the same priority; CI runs five, the rest niced (docs/web.md).
  if (asked === undefined) return 3;
  const n = Number(asked);
  if (!Number.isInteger(n) || n < 1) throw new Error(`CHESSKIT_TEST_CONCURRENCY must be a whole number from 1, not "${asked}"`);
  return n;
}

/**
 * The time each file's tests took, as the test runner measures them (its
 * top-level tests' durations added up; files that run at once overlap), so
 * that slow files stand out after the run.
 */
class FileTimes {
  private seconds = new Map<string, number>();

  note(event: { file?: string; nesting: number; details: { duration_ms: number } }): void {
    if (!event.file || event.nesting !== 0) return;
    this.seconds.set(event.file, (this.seconds.get(event.file) ?? 0) + event.details.duration_ms / 1000);
  }

  /** The times as `file-times.json` holds them: seconds by file, longest first, to a tenth. */
  record(): string {
    const rows = [...this.seconds].sort(([, a], [, b]) => b - a).map(([file, seconds]) => [relative(WEB, file), Math.round(seconds * 10) / 10]);
    return `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`;
  }

  report(): string {
    const rows = [...this.seconds].sort(([, a], [, b]) => b - a);
    return rows.map(([file, seconds]) => `# ${seconds.toFixed(1).padStart(6)} s  ${relative(WEB, file)}`).join('\n');
  }
}

async function main(): Promise<void> {
  const files = testFiles();
  const width = concurrency();
  // One computer thinker per file running at once, as when each file had a server of its own
  // (a server's default is the cores less one: a single thinker on two cores).
  const thinkers = ['--thinkers', String(width)];
  const [server, browser] = await Promise.all([startServer(thinkers), launchSharedBrowser()]);
  process.env[SHARED_SERVER] = server.url;
  process.env[SHARED_BROWSER] = browser.wsEndpoint();
  const started = performance.now();
  const times = new FileTimes();
  try {
    const stream = run({ files, concurrency: width });
    stream.on('test:fail', () => (process.exitCode = 1));
    stream.on('test:pass', event => times.note(event));
    stream.on('test:fail', event => times.note(event));
    const reporter = process.stdout.isTTY ? stream.compose(new spec()) : stream.compose(tap);
    reporter.pipe(process.stdout);
    await new Promise(done => reporter.on('end', done));
  } finally {
    await browser.close();
    await server.stop();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`# ${files.length} files, ${width} at a time, one server and one Chromium: ${seconds} s\n${times.report()}`);
  // A whole run that passed gives the order of the next ones (CHESSKIT_TEST_RECORD_TIMES=1, docs/web.md).
  if (process.env.CHESSKIT_TEST_RECORD_TIMES && !process.argv[2] && !process.exitCode) writeFileSync(TIMES_FILE, times.record());
}

await main();
