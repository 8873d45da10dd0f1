/**
 * Disposable worlds: how long a fork of a family snapshot (examples/scenarios/family.json:
 * 3 accounts, ~2,500 transactions, a schedule) takes, beside applying the same scenario to a new user
 * — the reference measured in the same sitting; 20 forks at once; removal.
 *
 * - apply: `POST /v1/scenarios/apply` of the scenario to a fresh user (registered before the clock
 *   starts), `applies` times, median;
 * - fork: `POST /v1/worlds { snapshotId }` of a snapshot of that scenario, one after another, `forks`
 *   times: median and p99 (nearest rank) of the client-observed latency, and the fork/apply ratio;
 * - parallel: 20 forks sent at once: the wall time of all, their median and p99, and the wall time as a
 *   ratio to 20 sequential medians (≤ 1: they overlap; 2 cores can at best halve it);
 * - removal: `DELETE /v1/worlds/:id` of every world made, one after another: median and p99.
 */
import fs from 'node:fs';
import path from 'node:path';
import { root } from './stack.ts';

export interface WorldsResult {
  snapshot: { transactions: number; accounts: number; tookMs: number };
  apply: { medianMs: number; runsMs: number[] };
  fork: { medianMs: number; p99Ms: number; runs: number; ratioToApply: number };
  parallel: { forks: number; wallMs: number; medianMs: number; p99Ms: number; wallToSequential: number };
  removal: { medianMs: number; p99Ms: number; runs: number };
}

async function call<T>(baseUrl: string, method: string, route: string, body: unknown, token: string): Promise<T> {
  const response = await fetch(baseUrl + route, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function register(baseUrl: string): Promise<string> {
  const email = `bench.worlds.${crypto.randomUUID()}@example.com`;
  const response = await fetch(`${baseUrl}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password-1' }),
  });
  return ((await response.json()) as { data: { accessToken: string } }).data.accessToken;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? 0;
/** Nearest rank: the smallest value with at least p of the values at or below it. */
const percentile = (values: number[], p: number) => sorted(values)[Math.max(0, Math.ceil(p * values.length) - 1)] ?? 0;
const round = (value: number) => Math.round(value * 10) / 10;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: round(performance.now() - started), value };
}

export async function measureWorlds(
  baseUrl: string,
  { applies = 5, forks = 50, parallel = 20 }: { applies?: number; forks?: number; parallel?: number } = {},
): Promise<WorldsResult> {
  const scenario = JSON.parse(fs.readFileSync(path.join(root, 'examples/scenarios/family.json'), 'utf8'));

  // The reference: the same scenario applied to a new user, as a suite without snapshots would.
  const applyMs: number[] = [];
  for (let run = 0; run < applies; run++) {
    const token = await register(baseUrl);
    applyMs.push((await timed(() => call(baseUrl, 'POST', '/v1/scenarios/apply', { scenario }, token))).ms);
  }

  const parent = await register(baseUrl);
  const made = await timed(() =>
    call<{ id: string; transactions: number; accounts: number }>(
      baseUrl,
      'POST',
      '/v1/sandbox/snapshots',
      { name: 'family', scenario },
      parent,
    ),
  );
  const snapshot = made.value;
  const fork = () =>
    call<{ world: { id: string } }>(baseUrl, 'POST', '/v1/worlds', { snapshotId: snapshot.id, ttl: 'PT1H' }, parent);

  // Warm: the first fork pays for cold caches and JIT.
  const ids = [(await fork()).world.id];
  const forkMs: number[] = [];
  for (let run = 0; run < forks; run++) {
    const { ms, value } = await timed(fork);
    forkMs.push(ms);
    ids.push(value.world.id);
  }

  const parallelMs: number[] = [];
  const wall = await timed(() =>
    Promise.all(
      Array.from({ length: parallel }, async () => {
        const { ms, value } = await timed(fork);
        parallelMs.push(ms);
        ids.push(value.world.id);
      }),
    ),
  );

  // Every world is whole: three accounts each (a spot check of the last one).
  const last = await call<{ accessToken: string }>(baseUrl, 'POST', '/v1/worlds', { snapshotId: snapshot.id }, parent);
  const accounts = await call<unknown[]>(baseUrl, 'GET', '/v1/accounts', undefined, last.accessToken);
  if (accounts.length !== snapshot.accounts) throw new Error(`a fork has ${accounts.length} accounts, not ${snapshot.accounts}`);

  const removalMs: number[] = [];
  for (const id of ids) removalMs.push((await timed(() => call(baseUrl, 'DELETE', `/v1/worlds/${id}`, undefined, parent))).ms);

  const forkMedian = median(forkMs);
  return {
    snapshot: { transactions: snapshot.transactions, accounts: snapshot.accounts, tookMs: made.ms },
    apply: { medianMs: median(applyMs), runsMs: applyMs },
    fork: {
      medianMs: forkMedian,
      p99Ms: percentile(forkMs, 0.99),
      runs: forks,
      ratioToApply: Math.round((forkMedian / median(applyMs)) * 1000) / 1000,
    },
    parallel: {
      forks: parallel,
      wallMs: wall.ms,
      medianMs: median(parallelMs),
      p99Ms: percentile(parallelMs, 0.99),
      wallToSequential: Math.round((wall.ms / (parallel * forkMedian)) * 100) / 100,
    },
    removal: { medianMs: median(removalMs), p99Ms: percentile(removalMs, 0.99), runs: removalMs.length },
  };
}

export function formatWorlds(r: WorldsResult): string[] {
  return [
    `disposable worlds (family snapshot: ${r.snapshot.accounts} accounts, ${r.snapshot.transactions} transactions, taken in ${r.snapshot.tookMs} ms):`,
    `  apply the scenario to a new user: median ${r.apply.medianMs} ms (${r.apply.runsMs.join(', ')})`,
    `  fork: median ${r.fork.medianMs} ms, p99 ${r.fork.p99Ms} ms over ${r.fork.runs} (fork/apply ${r.fork.ratioToApply}; goal median < 50 ms)`,
    `  ${r.parallel.forks} forks at once: ${r.parallel.wallMs} ms for all (median ${r.parallel.medianMs}, p99 ${r.parallel.p99Ms} ms; ${r.parallel.wallToSequential}× of ${r.parallel.forks} sequential medians)`,
    `  removal: median ${r.removal.medianMs} ms, p99 ${r.removal.p99Ms} ms over ${r.removal.runs}`,
  ];
}
