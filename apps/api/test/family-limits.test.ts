/**
 * Limits of a user's family (the user and its child worlds), where per-world limits would multiply
 * with the children (docs/reference/limits.md): open event streams and heavy operations in flight.
 */

import { pause } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    LIMIT_EVENT_STREAMS: '3',
    LIMIT_FAMILY_EVENT_STREAMS: '5',
    LIMIT_FAMILY_HEAVY_OPERATIONS: '1',
    LIMIT_FAMILY_REQUESTS: '2',
  });
});
afterAll(() => app?.close());

const SCENARIO = {
  version: 1,
  seed: 'family',
  accounts: [{ key: 'main', name: 'Main', openingBalance: 100_000, history: { months: 3, profile: 'student' } }],
};

/** A child world of `parent`, built from the scenario; its access token. */
async function childWorld(parent: TestUser): Promise<string> {
  const res = await app.call<{ data: { accessToken: string } }>('POST', '/v1/worlds', {
    token: parent.accessToken,
    body: { scenario: SCENARIO },
  });
  expect(res.status).toBe(201);
  return res.body.data.accessToken;
}

/** Opens an event stream; its status, and a function that closes it. */
async function openStream(token: string): Promise<{ status: number; close: () => void }> {
  const controller = new AbortController();
  const res = await fetch(`${app.url}/v1/events/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status !== 200) await res.text();
  return { status: res.status, close: () => controller.abort() };
}

describe('a family’s limits', () => {
  it('event streams: a user and its children open at most LIMIT_FAMILY_EVENT_STREAMS together, asked all at once', async () => {
    const parent = await app.createUser();
    const tokens = [parent.accessToken, await childWorld(parent), await childWorld(parent)];
    // Twelve at once, four per world: each world is under its own limit of 3 only three times.
    const streams = await Promise.all(Array.from({ length: 12 }, (_, i) => openStream(tokens[i % 3] as string)));
    try {
      const statuses = streams.map((stream) => stream.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 422)).toHaveLength(7);
      // Another family is not touched by this one's streams.
      const stranger = await app.createUser();
      const theirs = await openStream(stranger.accessToken);
      expect(theirs.status).toBe(200);
      theirs.close();
    } finally {
      for (const stream of streams) stream.close();
    }
    // A closed stream frees its place in the family.
    await expect
      .poll(async () => {
        const again = await openStream(tokens[2] as string);
        again.close();
        return again.status;
      })
      .toBe(200);
  });

  it('the family’s stream refusal names the family limit', async () => {
    const parent = await app.createUser();
    const child = await childWorld(parent);
    const mine = await Promise.all(Array.from({ length: 3 }, () => openStream(parent.accessToken)));
    const childs = await Promise.all(Array.from({ length: 2 }, () => openStream(child)));
    try {
      const refused = await fetch(`${app.url}/v1/events/stream`, { headers: { authorization: `Bearer ${child}` } });
      expect(refused.status).toBe(422);
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe('LIMIT_EXCEEDED');
      expect(body.message).toContain('LIMIT_FAMILY_EVENT_STREAMS');
    } finally {
      for (const stream of [...mine, ...childs]) stream.close();
    }
  });

  it('heavy operations: a family holds at most LIMIT_FAMILY_HEAVY_OPERATIONS world locks at once; another family is not held back', async () => {
    const parent = await app.createUser();
    const family = [parent.accessToken, await childWorld(parent), await childWorld(parent), await childWorld(parent)];
    const stranger = await app.createUser();
    let most = 0;
    let strangerHeld = 0;
    let done = false;
    const watching = (async () => {
      while (!done) {
        // An advisory lock's 64-bit key shows in pg_locks as two 32-bit halves; the stranger's is its clock lock.
        const { rows } = await app.db.query<{ family: number; stranger: number }>(
          `select count(*) filter (where key <> theirs)::int as family, count(*) filter (where key = theirs)::int as stranger
             from (select (classid::bigint << 32) | objid::bigint as key from pg_locks
                    where locktype = 'advisory' and granted
                      and database = (select oid from pg_database where datname = current_database())) held,
                  (select hashtextextended($1, 0) as theirs) stranger`,
          [`sandbank.clock:${stranger.id}`],
        );
        most = Math.max(most, rows[0]?.family ?? 0);
        strangerHeld = Math.max(strangerHeld, rows[0]?.stranger ?? 0);
      }
    })();
    const apply = (token: string) =>
      app.call('POST', '/v1/scenarios/apply', { token, body: { scenario: SCENARIO, reset: true } });
    const results = await Promise.all([...family.flatMap((token) => [apply(token), apply(token)]), apply(stranger.accessToken)]);
    done = true;
    await watching;
    expect(results.map((res) => res.status)).toEqual(Array(results.length).fill(200));
    // Eight applies in four worlds of one family, one lock at a time; the stranger's apply took its own.
    expect(most).toBe(1);
    expect(strangerHeld).toBeLessThanOrEqual(1);
  });

  it('requests: a family is served LIMIT_FAMILY_REQUESTS at a time, the rest wait without a connection; others are not held', async () => {
    const parent = await app.createUser();
    const child = await childWorld(parent);
    const stranger = await app.createUser();
    // The parent's row, locked from outside: its account openings wait inside PostgreSQL, each on a connection.
    const blocker = await app.db.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from users where id = $1 for update', [parent.id]);
      const openings = [1, 2].map((i) =>
        app.call('POST', '/v1/accounts', { token: parent.accessToken, body: { name: `Held ${i}` } }),
      );
      await expect.poll(() => waitingOnLock()).toBe(2);
      // The family's two places are taken: its next requests wait (the child's too), holding nothing.
      let served = 0;
      const queued = [parent.accessToken, child].map((token) =>
        app.call('GET', '/v1/accounts', { token }).then((res) => {
          served++;
          return res.status;
        }),
      );
      const started = performance.now();
      const theirs = await app.call('GET', '/v1/accounts', { token: stranger.accessToken });
      expect(theirs.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);
      await pause(300, 'nothing may be served while the family is over its share: time for a wrong answer to show');
      expect(served).toBe(0);
      expect(await waitingOnLock()).toBe(2);
      await blocker.query('rollback');
      expect((await Promise.all(openings)).map((res) => res.status)).toEqual([201, 201]);
      expect(await Promise.all(queued)).toEqual([200, 200]);
    } finally {
      await blocker.query('rollback').catch(() => {});
      blocker.release();
    }
  });
});

describe('a family past its share’s wait', () => {
  it('is refused 429 with Retry-After in each contract: REST, Plaid, GoCardless, SimpleFIN', { timeout: 60_000 }, async () => {
    // One place per family: the parent's account opening, held on its row lock, takes it.
    const tight = await startTestApp({ LIMIT_FAMILY_REQUESTS: '1' }, { databaseUrl: app.databaseUrl });
    const blocker = await tight.db.connect();
    try {
      const parent = await tight.createUser();
      await tight.call('POST', '/v1/accounts', { token: parent.accessToken, body: { name: 'Main' } });
      const key = await tight.call<{ data: { id: string; key: string } }>('POST', '/v1/api-keys', {
        token: parent.accessToken,
        body: { name: 'faces' },
      });
      const { id: keyId, key: secret } = key.body.data;
      const setup = await tight.call<{ data: { setupToken: string } }>('POST', '/v1/simplefin/setup-token', {
        token: parent.accessToken,
        body: {},
      });
      const claimUrl = new URL(Buffer.from(setup.body.data.setupToken, 'base64').toString());
      const accessUrl = new URL(await (await fetch(tight.url + claimUrl.pathname, { method: 'POST' })).text());
      const gcToken = await fetch(`${tight.url}/gocardless/api/v2/token/new/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret_id: keyId, secret_key: secret }),
      }).then(async (res) => ((await res.json()) as { access: string }).access);

      await blocker.query('begin');
      await blocker.query('select 1 from users where id = $1 for update', [parent.id]);
      const held = tight.call('POST', '/v1/accounts', { token: parent.accessToken, body: { name: 'Held' } });
      await expect.poll(() => waitingOnLock()).toBe(1);

      const [rest, plaid, gocardless, simplefin] = await Promise.all([
        fetch(`${tight.url}/v1/accounts`, { headers: { authorization: `Bearer ${parent.accessToken}` } }),
        fetch(`${tight.url}/plaid/accounts/get`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'plaid-client-id': parent.id, 'plaid-secret': secret },
          body: JSON.stringify({ access_token: 'access-sandbox-none' }),
        }),
        fetch(`${tight.url}/gocardless/api/v2/requisitions/`, { headers: { authorization: `Bearer ${gcToken}` } }),
        fetch(`${tight.url}${accessUrl.pathname}/accounts`, {
          headers: {
            authorization: `Basic ${Buffer.from(`${decodeURIComponent(accessUrl.username)}:${decodeURIComponent(accessUrl.password)}`).toString('base64')}`,
          },
        }),
      ]);
      const answers = {
        rest: [rest.status, rest.headers.get('retry-after'), ((await rest.json()) as { code: string }).code],
        plaid: [plaid.status, plaid.headers.get('retry-after'), ((await plaid.json()) as { error_type: string }).error_type],
        gocardless: [
          gocardless.status,
          gocardless.headers.get('retry-after'),
          ((await gocardless.json()) as { status_code: number }).status_code,
        ],
        simplefin: [simplefin.status, simplefin.headers.get('retry-after'), await simplefin.text()],
      };
      expect(answers).toEqual({
        rest: [429, '1', 'RATE_LIMITED'],
        plaid: [429, '1', 'RATE_LIMIT_EXCEEDED'],
        gocardless: [429, '1', 429],
        simplefin: [429, '1', 'Too many requests'],
      });
      await blocker.query('rollback');
      expect((await held).status).toBe(201);
    } finally {
      await blocker.query('rollback').catch(() => {});
      blocker.release();
      await tight.close();
    }
  });
});

/** Backends of this database waiting for a row lock on users (the held parent's). */
async function waitingOnLock(): Promise<number> {
  const { rows } = await app.db.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like '%users%' and pid <> pg_backend_pid()`,
  );
  return rows[0]?.n ?? 0;
}
