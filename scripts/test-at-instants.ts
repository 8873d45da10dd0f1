/**
 * `pnpm test:instants`: the tests whose outcome could depend on the date or the hour (scenarios,
 * schedules, the clock, settlements and expiries, sync, date filters) run again at fixed wall-clock
 * instants — both sides of midnight in Warsaw and in UTC, both DST changes, a month's last day,
 * 29 February, New Year's Eve — so a test that passes only at some hours fails here, every run,
 * instead of turning CI red at those hours (issue 35).
 *
 * How: libfaketime (Debian's `libfaketime`, installed by scripts/ensure-faketime.sh) is preloaded
 * into the test processes — vitest, the API under test, any API or worker process a test starts —
 * with a relative offset (`FAKETIME=+Ns`), so they agree with each other and time still moves;
 * monotonic clocks are left alone so timers behave. PostgreSQL is NOT run under it: shifted, its
 * timers misfire (a `lock_timeout` never fires, or every pending timeout fires at the first alarm;
 * docs/stack-notes.md). This script starts a real-time embedded PostgreSQL itself, and the test setup
 * (`TEST_ALIGN_DB_CLOCK=1`) shifts the worlds' wall time, `sandbank_wall_now()`, by the same offset.
 *
 * The instants are the NEXT occurrences of each boundary, so they stay ahead of the calendar (dates
 * that tests hard-code in the past stay in the past); each starts 20 s before its boundary so the
 * run crosses it. `pnpm test:instants <ISO instant> …` runs instants of your own, past ones too, e.g.
 * 2026-11-25T20:30:00Z, the evening issue 35's test failed at before the fix.
 */
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@sandbank/db';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The test files that read the date or the hour, per package: the rest of the suite is no different at any instant. */
const FILES: Readonly<Record<string, readonly string[]>> = {
  '@sandbank/api': [
    'test/cli-listen.test.ts', // sandbank listen across a clock advance and a scenario; a statement's default period
    'test/cli-human-output.test.ts', // a scenario's past run, then a clock advance that fires and settles
    'test/clock.test.ts',
    'test/faces/actual-bank-sync.test.ts', // Actual asks up to its UTC day; the faces answer Warsaw days
    'test/faces/actual-budget-sync.test.ts', // Actual's budget counts rows up to its UTC day
    'test/faces/enablebanking/access.test.ts', // consent validity on the world's clock; date_from/date_to bounds
    'test/faces/enablebanking/flow.test.ts', // a year of history paged by Warsaw days
    'test/faces/statements/statement-api.test.ts',
    'test/fx-rates.test.ts', // a rates day defaults to the world's today in Warsaw
    'test/faces/statements/statement-stream.test.ts',
    'test/lifecycle.test.ts',
    'test/payments.test.ts', // a cross-currency transfer at the rate pinned for the world's today
    'test/payments-clearing.test.ts', // sessions on the calendar of next June, reached by advances from today
    'test/payment-files-http.test.ts', // a file paid next June, its sessions reached by advances from today
    'test/payments-crash.test.ts', // a session of next June, settled across a killed API process
    'test/pull-dates.test.ts',
    'test/scenario-worlds.test.ts',
    'test/scenarios.test.ts',
    'test/scenario-currencies.test.ts', // generated histories end yesterday; the export carries the world's now
    'test/schedules.test.ts',
    'test/simulations.test.ts',
    'test/sync.test.ts',
    'test/transactions.test.ts',
    'test/worlds-client.test.ts',
    'test/worlds-removal.test.ts',
    'test/worlds.test.ts',
  ],
  // Due items fired by the worker as wall time passes (settlements, expiries, schedule runs).
  '@sandbank/worker': ['test/clock-advance.test.ts', 'test/payment-sessions.test.ts'],
};

const LEAD_MS = 20_000;
const HOUR_MS = 3_600_000;

/** The last Sunday of a month (1-based), as a UTC midnight. */
const lastSunday = (year: number, month: number) => {
  const last = new Date(Date.UTC(year, month, 0));
  return Date.UTC(year, month - 1, last.getUTCDate() - last.getUTCDay());
};
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The first boundary `at(year)` after now (20 s of lead included), looking a few years ahead. */
function next(at: (year: number) => number | null): string {
  const now = Date.now();
  for (let year = new Date(now).getUTCFullYear(); ; year++) {
    const boundary = at(year);
    if (boundary !== null && boundary - LEAD_MS > now) return new Date(boundary - LEAD_MS).toISOString();
  }
}

const INSTANTS: readonly { at: string; why: string }[] = [
  // Midnight in Warsaw on 1 January is 23:00 UTC on 31 December.
  { at: next((y) => Date.UTC(y, 11, 31, 23)), why: "New Year's Eve (a month's last day), crossing midnight in Warsaw" },
  { at: next((y) => (isLeap(y) ? Date.UTC(y, 2, 1) : null)), why: '29 February, crossing midnight UTC (01:00 in Warsaw)' },
  // Both changes happen at 01:00 UTC: 02:00 CET → 03:00 CEST in March, 03:00 CEST → 02:00 CET in October.
  { at: next((y) => lastSunday(y, 3) + HOUR_MS), why: 'the spring DST change in Warsaw' },
  { at: next((y) => lastSunday(y, 10) + HOUR_MS), why: 'the autumn DST change in Warsaw' },
];

const library = execFileSync('bash', [path.join(root, 'scripts/ensure-faketime.sh')], { encoding: 'utf8' }).trim();
const asked = process.argv.slice(2);
const instants = asked.length > 0 ? asked.map((at) => ({ at, why: 'asked for' })) : INSTANTS;
const dataDir = path.join(root, '.data/test-instants');
rmSync(dataDir, { recursive: true, force: true });
const database = await startEmbeddedPostgres({
  dataDir,
  port: Number(process.env.TEST_INSTANTS_PG_PORT ?? 54349),
  database: 'postgres',
});
const failed: string[] = [];

/** How long one package's files may take at one instant before its whole process group is killed (a hung run). */
const RUN_TIMEOUT_MS = 10 * 60_000;

/** Runs vitest on `files` of `workspace` in its own process group; false when it fails or hangs. */
function runVitest(workspace: string, files: readonly string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const child = spawn('npx', ['-y', 'pnpm@10', '--filter', workspace, 'exec', 'vitest', 'run', ...files], {
    cwd: root,
    stdio: 'inherit',
    env,
    detached: true,
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      console.log(`── ${workspace}: no end after ${RUN_TIMEOUT_MS / 60_000} min; killed ──`);
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, RUN_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Whatever the run left behind in its group (a worker that never exited) goes with it.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
      resolve(code === 0);
    });
  });
}

/** Runs every file of FILES with the clock at `at`; true when all passed. */
async function runAt(at: string, why: string, target: number): Promise<boolean> {
  const offsetSeconds = Math.round((target - Date.now()) / 1000);
  console.log(`\n── ${at} (${why}) ──`);
  const started = Date.now();
  let passed = true;
  for (const [workspace, files] of Object.entries(FILES)) {
    const ok = await runVitest(workspace, files, {
      ...process.env,
      LD_PRELOAD: library,
      FAKETIME: `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}s`,
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      TEST_DATABASE_URL: database.url,
      TEST_ALIGN_DB_CLOCK: '1',
    });
    passed &&= ok;
  }
  console.log(`── ${at}: ${passed ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s ──`);
  return passed;
}
try {
  for (const { at, why } of instants) {
    const target = Date.parse(at);
    if (Number.isNaN(target)) throw new Error(`Not an instant: ${at}`);
    // A test that depends on the date fails at its instant every time; one that fails once and then
    // passes at the same instant failed for another reason (a slow machine), which the suite's own
    // run is there to catch. So a failed instant runs once more before it counts.
    let passed = await runAt(at, why, target);
    if (!passed) {
      console.log(`── ${at}: failed; once more, to tell a date from a flake ──`);
      passed = await runAt(at, why, Date.parse(at));
    }
    if (!passed) failed.push(at);
  }
} finally {
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed.length > 0) {
  console.error(`\nFailed at ${failed.join(', ')}`);
  process.exit(1);
}
