/**
 * Limits of a user's family (the user and its child worlds), where per-world limits would multiply
 * with the children (docs/reference/limits.md): open event streams and heavy operations in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ LIMIT_EVENT_STREAMS: '3', LIMIT_FAMILY_EVENT_STREAMS: '5', LIMIT_FAMILY_HEAVY_OPERATIONS: '1' });
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
});
