/**
 * One tenant's burst of lock-taking calls must not stall every other tenant (issue 46).
 *
 * A heavy operation of a world (a snapshot, a restore, an advance, a reset, a scenario, a schedule)
 * runs one at a time per world. A caller that waits for its turn must not hold a database
 * connection meanwhile: when it did, 20 waiters of one user emptied the pool of 20, the lock's
 * holder could not get a connection to do its work, and every request of every user waited for the
 * lock's 30 s timeout. Here one user bursts 30 calls of each kind while another user reads its
 * accounts; the reader's slowest answer must stay fast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
let burster: TestUser;
let reader: TestUser;
let snapshotId: string;
let accountId: string;

beforeAll(async () => {
  app = await startTestApp({ DATABASE_POOL_SIZE: '20', LIMIT_SNAPSHOTS: '10000', LIMIT_SCHEDULES_PER_ACCOUNT: '1000' });
  [burster, reader] = await Promise.all([app.createUser(), app.createUser()]);
  await openAccount();
  await app.call('POST', '/v1/accounts', { token: reader.accessToken, body: { name: 'Reader' } });
  const snapshot = await app.call<{ data: { id: string } }>('POST', '/v1/sandbox/snapshots', {
    token: burster.accessToken,
    body: { name: 'base' },
  });
  snapshotId = snapshot.body.data.id;
});

afterAll(() => app?.close());

/** How long each of the reader's calls takes while `burst` runs, one after another until it ends (at least 100: a p99 of fewer is their maximum). */
async function readerLatencies(burst: Promise<unknown>): Promise<number[]> {
  let done = false;
  const finished = burst.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done || latencies.length < 100) {
    const started = performance.now();
    const res = await app.call('GET', '/v1/accounts', { token: reader.accessToken });
    latencies.push(performance.now() - started);
    expect(res.status).toBe(200);
  }
  await finished;
  return latencies;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

const SCENARIO = {
  version: 1,
  seed: 'stall',
  accounts: [{ key: 'main', name: 'Main', openingBalance: 100_000, history: { months: 1, profile: 'student' } }],
};

/** Child worlds of the burster, made before the removal burst (one removed per call). */
let children: string[] = [];

const BURSTS: Record<string, (i: number) => { method: string; path: string; body?: unknown }> = {
  snapshots: () => ({ method: 'POST', path: '/v1/sandbox/snapshots', body: { name: 'burst' } }),
  restore: () => ({ method: 'POST', path: '/v1/sandbox/restore', body: { snapshotId } }),
  advance: () => ({ method: 'POST', path: '/v1/clock/advance', body: { by: 'PT1S' } }),
  reset: () => ({ method: 'POST', path: '/v1/sandbox/reset', body: { confirm: 'RESET' } }),
  schedules: () => ({
    method: 'POST',
    path: `/v1/accounts/${accountId}/schedules`,
    body: { amount: -100, description: 'Rent', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1' },
  }),
  scenarios: () => ({ method: 'POST', path: '/v1/scenarios/apply', body: { scenario: SCENARIO, reset: true } }),
  forks: () => ({ method: 'POST', path: '/v1/worlds', body: { snapshotId } }),
  removals: (i) => ({ method: 'DELETE', path: `/v1/worlds/${children[i]}` }),
};

/** The burster's account, opened again before each burst (a reset or a restore takes it away). */
async function openAccount(): Promise<void> {
  const account = await app.call<{ data: { id: string } }>('POST', '/v1/accounts', {
    token: burster.accessToken,
    body: { name: `Main ${Date.now()}` },
  });
  expect(account.status).toBe(201);
  accountId = account.body.data.id;
}

describe('a burst of one tenant’s heavy calls', () => {
  for (const [kind, request] of Object.entries(BURSTS)) {
    it(`${kind}: 30 at once leave another tenant's reads fast (p99 < 100 ms)`, { timeout: 90_000, retry: 2 }, async () => {
      await openAccount();
      if (kind === 'removals') {
        const { body } = await app.call<{ data: { id: string }[] }>('GET', '/v1/worlds?limit=100', {
          token: burster.accessToken,
        });
        children = body.data.map((world) => world.id);
        expect(children.length).toBeGreaterThanOrEqual(30);
      }
      // Retried twice: under parallel test files a burst of CPU elsewhere can lift a p99 once; a stall (each
      // waiter holding a connection until the lock's 30 s timeout) fails every try.
      // On a loaded machine every call is slower: the bound is 100 ms, or five times the reader's p99 alone if that is more.
      const alone: number[] = [];
      for (let i = 0; i < 60; i++) {
        const started = performance.now();
        await app.call('GET', '/v1/accounts', { token: reader.accessToken });
        alone.push(performance.now() - started);
      }
      const bound = Math.max(100, 5 * p99(alone));
      const statuses: number[] = [];
      const burst = Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const { method, path, body } = request(i);
          const res = await app.call(method, path, { token: burster.accessToken, ...(body === undefined ? {} : { body }) });
          statuses.push(res.status);
        }),
      );
      const latencies = await readerLatencies(burst);
      // Every call of the burst got an answer of its own contract: done, or refused as busy.
      for (const status of statuses) expect([200, 201, 404, 409, 429]).toContain(status);
      expect(
        statuses.some((status) => status < 300),
        `statuses: ${statuses.join(',')}`,
      ).toBe(true);
      const seen = `reader latencies (ms): ${latencies.map(Math.round).join(',')}`;
      expect(p99(latencies), seen).toBeLessThan(bound);
      // A stall is one call that waits for the whole burst: no call may take ten times the bound.
      expect(Math.max(...latencies), seen).toBeLessThan(10 * bound);
    });
  }
});
