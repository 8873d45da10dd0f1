/**
 * Removing a child world is complete: after `DELETE /v1/worlds/:id`, or the sweep once its
 * TTL has passed, no row of any table in the database — every table of every schema, read from
 * information_schema, graphile-worker's included — holds any id of the world. The sweep removes a
 * world whose TTL passed while no worker ran (a worker that was down at the moment of expiry).
 */
import { sweepExpiredWorlds } from '@sandbank/core';
import { pause } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
let parent: TestUser;
let snapshotId: string;
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_STORE: 'postgres' });
  parent = await app.createUser();
  const account = await openAccount(app, parent, 'Główne');
  await simulate(app, parent, { accountId: account, amount: 50_000, description: 'Start' });
  await simulate(app, parent, { accountId: account, amount: -2_000, description: 'Hold', status: 'pending', settleAfter: 'P2D' });
  const schedule = await app.call('POST', `/v1/accounts/${account}/schedules`, {
    token: parent.accessToken,
    body: {
      amount: -100,
      description: 'Co tydzień',
      rrule: 'FREQ=WEEKLY',
      startAt: new Date(Date.now() - 15 * 86_400_000).toISOString(),
    },
  });
  expect(schedule.status).toBe(201);
  // Kept with the snapshot and made anew in every fork: a webhook and an API key of the child's own.
  const hook = await app.call('POST', '/v1/webhooks', {
    token: parent.accessToken,
    body: {
      url: 'http://127.0.0.1:9/parent',
      secret: 'whsec-parent-0123456789',
      events: ['transaction.created'],
      clientId: 'app',
    },
  });
  expect(hook.status).toBe(201);
  expect((await app.call('POST', '/v1/api-keys', { token: parent.accessToken, body: { name: 'CI' } })).status).toBe(201);
  const snap = await app.call('POST', '/v1/sandbox/snapshots', {
    token: parent.accessToken,
    body: { name: 'base', include: ['webhooks', 'apiKeys'] },
  });
  expect(snap.body.data).toMatchObject({ webhooks: 1, apiKeys: 1 });
  snapshotId = snap.body.data.id;
});
afterAll(() => app.close());

interface Child {
  world: { id: string; email: string };
  accessToken: string;
  refreshToken: string;
  apiKey: { id: string; key: string };
  /** The snapshot's webhook and API key, made anew in the child. */
  webhooks: { id: string; secret: string }[];
  apiKeys: { id: string; key: string }[];
}

const fork = async (ttl = 'PT1H'): Promise<Child> => {
  const res = await app.call('POST', '/v1/worlds', { token: parent.accessToken, body: { snapshotId, ttl } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

/** A child world of `owner` made from a one-account scenario (no snapshot). */
const scenarioWorld = async (owner: TestUser): Promise<Child> => {
  const scenario = { version: 1, seed: 1, accounts: [{ key: 'a', name: 'A', openingBalance: 100 }] };
  const res = await app.call('POST', '/v1/worlds', { token: owner.accessToken, body: { scenario } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

/** The Plaid face's `/sandbox/public_token/create` with the child's own API key. */
const plaidPublicToken = (child: Child) =>
  fetch(`${app.url}/plaid/sandbox/public_token/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: child.world.id,
      secret: child.apiKey.key,
      institution_id: 'ins_sandbank',
      initial_products: ['transactions'],
    }),
  });

/** The child used as a budgeting app would: bookings, events, keys, a webhook, a snapshot, SimpleFIN, Plaid, GoCardless. */
async function useWorld(child: Child): Promise<void> {
  const token = child.accessToken;
  const [account] = (await app.call('GET', '/v1/accounts', { token })).body.data;
  expect(
    (await simulate(app, { accessToken: token }, { accountId: account.id, amount: -1_000, description: 'Żabka' })).status,
  ).toBe(201);
  expect((await app.call('POST', '/v1/clock/advance', { token, body: { by: 'P8D' } })).status).toBe(200);
  expect((await app.call('POST', '/v1/api-keys', { token, body: { name: 'second' } })).status).toBe(201);
  const hook = await app.call('POST', '/v1/webhooks', {
    token,
    body: {
      url: 'http://127.0.0.1:9/hooks',
      secret: 'whsec-0123456789abcdef0123',
      events: ['transaction.created'],
      clientId: 'app',
    },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  expect((await app.call('POST', '/v1/sandbox/snapshots', { token, body: { name: 'inside' } })).status).toBe(201);
  expect((await app.call('POST', '/v1/simplefin/setup-token', { token, body: {} })).status).toBe(201);
  // The faces' credentials: a Plaid item, a GoCardless token and agreement (rate-limit buckets of the key, too).
  const plaid = await plaidPublicToken(child);
  expect(plaid.status, await plaid.clone().text()).toBe(200);
  const gocardless = await fetch(`${app.url}/gocardless/api/v2/token/new/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret_id: child.apiKey.id, secret_key: child.apiKey.key }),
  });
  expect(gocardless.status, await gocardless.clone().text()).toBe(200);
  const { access } = (await gocardless.json()) as { access: string };
  const agreement = await fetch(`${app.url}/gocardless/api/v2/agreements/enduser/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
    body: JSON.stringify({ institution_id: 'SANDBOXFINANCE_SFIN0000' }),
  });
  expect(agreement.status, await agreement.clone().text()).toBe(201);
  expect((await app.call('GET', `/api/owner/${child.world.id}/transactions`, { token: child.apiKey.key })).status).toBe(200);
}

/** Every id the world holds in any table with an `id` and a `user_id` column, and the world's own. */
async function idsOfWorld(userId: string): Promise<string[]> {
  const { rows: tables } = await app.db.query<{ schema: string; table: string }>(
    `select c.table_schema as schema, c.table_name as table from information_schema.columns c
      where c.column_name = 'user_id' and c.table_schema not in ('pg_catalog', 'information_schema')
        and exists (select 1 from information_schema.columns i where i.table_schema = c.table_schema
                     and i.table_name = c.table_name and i.column_name = 'id')`,
  );
  const ids = [userId];
  for (const { schema, table } of tables) {
    const { rows } = await app.db.query<{ id: string }>(`select id::text from "${schema}"."${table}" where user_id = $1`, [
      userId,
    ]);
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** Rows of any table, in any schema, whose text holds one of `ids`: table → count. */
async function rowsHolding(ids: string[]): Promise<Record<string, number>> {
  const { rows: tables } = await app.db.query<{ schema: string; table: string }>(
    `select table_schema as schema, table_name as table from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  expect(tables.length).toBeGreaterThan(20);
  const found: Record<string, number> = {};
  for (const { schema, table } of tables) {
    const { rows } = await app.db.query<{ n: number }>(
      `select count(*)::int as n from "${schema}"."${table}" t where t::text ~ $1`,
      [ids.join('|')],
    );
    if ((rows[0]?.n ?? 0) > 0) found[`${schema}.${table}`] = rows[0]?.n ?? 0;
  }
  return found;
}

describe('removal is complete', () => {
  it('DELETE removes every row of the world from every table; the parent and a sibling keep theirs', async () => {
    const child = await fork();
    const sibling = await fork();
    await useWorld(child);
    const ids = await idsOfWorld(child.world.id);
    expect(ids.length).toBeGreaterThan(15);
    const before = await rowsHolding(ids);
    for (const table of [
      'public.users',
      'public.accounts',
      'public.transactions',
      'public.events',
      'public.api_keys',
      'public.webhooks',
      'public.worlds',
    ]) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    expect(ids).toEqual(expect.arrayContaining([child.webhooks[0]?.id, child.apiKeys[0]?.id]));
    const parentRows = await rowsHolding([parent.id]);
    const siblingRows = await rowsHolding([sibling.world.id]);

    // A token refreshed before the removal is the world's as much as the first one.
    const refreshed = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: child.refreshToken } });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const tokens = [child.accessToken, refreshed.body.data.accessToken as string];
    for (const token of tokens) expect((await app.call('GET', '/v1/accounts', { token })).status).toBe(200);

    const res = await app.call('DELETE', `/v1/worlds/${child.world.id}`, { token: parent.accessToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.id).toBe(child.world.id);
    expect(await rowsHolding(ids)).toEqual({});
    // The parent keeps every row it had, but for the removed world's own `worlds` row.
    expect(await rowsHolding([parent.id])).toEqual({ ...parentRows, 'public.worlds': (parentRows['public.worlds'] ?? 0) - 1 });
    expect(await rowsHolding([sibling.world.id])).toEqual(siblingRows);
    // Its credentials are gone with it, the copies of the snapshot's keys too.
    for (const key of [child.apiKey.key, child.apiKeys[0]?.key]) {
      expectRefusal(await app.call('GET', `/api/owner/${child.world.id}/transactions`, { token: key }), [
        401,
        'UNAUTHENTICATED',
        undefined,
      ]);
    }
    expectRefusal(await app.call('DELETE', `/v1/worlds/${child.world.id}`, { token: parent.accessToken }), [
      404,
      'NOT_FOUND',
      undefined,
    ]);
    // Its access tokens (JWTs, valid for minutes more) are refused at once, reads as writes, on every door.
    const anyId = child.world.id; // the refusal comes before any lookup
    for (const token of tokens) {
      for (const [method, path, body] of [
        ['GET', '/v1/accounts', undefined],
        ['GET', '/v1/webhooks', undefined],
        ['GET', '/v1/events', undefined],
        ['GET', '/v1/clock', undefined],
        ['GET', '/v1/sandbox/snapshots', undefined],
        ['GET', `/v1/accounts/${anyId}/statement?from=2026-01-01&to=2026-01-31&format=csv`, undefined],
        ['GET', '/v1/events/stream', undefined],
        ['POST', '/v1/accounts', { name: 'Po usunięciu' }],
        ['POST', '/v1/api-keys', { name: 'x' }],
        ['POST', '/v1/sandbox/snapshots', { name: 'x' }],
        ['POST', '/v1/clock/advance', { by: 'P1D' }],
      ] as const) {
        const after = await app.call(method, path, { token, ...(body ? { body } : {}) });
        expect([after.status, after.body.code], `${path}: ${JSON.stringify(after.body)}`).toEqual([401, 'UNAUTHENTICATED']);
      }
    }
    expect(await rowsHolding(ids)).toEqual({});
  });

  it('TTL: past it, before any sweep, every credential of the world is refused at every door', async () => {
    const short = await fork('PT1S');
    const long = await fork('PT1H');
    // A GoCardless access token made while the world was alive.
    const gocardlessToken = async (child: Child): Promise<string> => {
      const made = await fetch(`${app.url}/gocardless/api/v2/token/new/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret_id: child.apiKey.id, secret_key: child.apiKey.key }),
      });
      expect(made.status).toBe(200);
      return ((await made.json()) as { access: string }).access;
    };
    const gocardless = { short: await gocardlessToken(short), long: await gocardlessToken(long) };
    await pause(1_300, "the short world's 1 s TTL runs out on the wall clock");

    /** The status each door answers this world's credentials with. */
    const doors = async (child: Child, access: string) => ({
      accessToken: (await app.call('GET', '/v1/accounts', { token: child.accessToken })).status,
      pullWithWorldKey: (await app.call('GET', `/api/owner/${child.world.id}/transactions`, { token: child.apiKey.key })).status,
      pullWithKeptKey: (await app.call('GET', `/api/owner/${child.world.id}/transactions`, { token: child.apiKeys[0]?.key }))
        .status,
      refresh: (await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: child.refreshToken } })).status,
      plaid: (await plaidPublicToken(child)).status,
      gocardless: (
        await fetch(`${app.url}/gocardless/api/v2/agreements/enduser/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
          body: JSON.stringify({ institution_id: 'SANDBANK_DATY_SNDBPLP1' }),
        })
      ).status,
      simplefin: (
        await fetch(`${app.url}/simplefin/accounts`, {
          headers: { authorization: `Basic ${Buffer.from(`${child.world.id}:${child.apiKey.key}`).toString('base64')}` },
        })
      ).status,
    });
    expect(await doors(short, gocardless.short)).toEqual({
      accessToken: 401,
      pullWithWorldKey: 401,
      pullWithKeptKey: 401,
      refresh: 401,
      plaid: 400, // Plaid's own contract: INVALID_API_KEYS is a 400
      gocardless: 401,
      simplefin: 403, // SimpleFIN's: bad credentials are a 403
    });
    // A live sibling is untouched by it.
    expect(await doors(long, gocardless.long)).toEqual({
      accessToken: 200,
      pullWithWorldKey: 200,
      pullWithKeptKey: 200,
      refresh: 200,
      plaid: 200,
      gocardless: 201,
      simplefin: 200,
    });
    expect(await sweepExpiredWorlds(app.orm.em.fork())).toBe(1);
  });

  it('TTL: a world that expired while no worker ran is removed, whole, by the next sweep', async () => {
    const short = await fork('PT1S');
    const long = await fork('PT1H');
    await useWorld(short);
    const ids = await idsOfWorld(short.world.id);
    await pause(1_300, "the short world's 1 s TTL runs out on the wall clock");
    // Expired, nobody swept: the rows are still there, but its token is refused, and the parent no longer lists or gets it.
    expectRefusal(await app.call('GET', '/v1/accounts', { token: short.accessToken }), [401, 'UNAUTHENTICATED', undefined]);
    expect((await app.call('GET', '/v1/accounts', { token: long.accessToken })).status).toBe(200);
    expect(Object.keys(await rowsHolding([short.world.id])).length).toBeGreaterThan(3);
    const listed = (
      await app.call<Output['worlds']['listWorlds']>('GET', '/v1/worlds?limit=200', { token: parent.accessToken })
    ).body.data.map((w) => w.id);
    expect(listed).not.toContain(short.world.id);
    expect(listed).toContain(long.world.id);
    expectRefusal(await app.call('GET', `/v1/worlds/${short.world.id}`, { token: parent.accessToken }), [
      404,
      'NOT_FOUND',
      undefined,
    ]);

    // The worker comes back: its sweep removes what expired, and nothing else.
    expect(await sweepExpiredWorlds(app.orm.em.fork())).toBe(1);
    expect(await rowsHolding(ids)).toEqual({});
    expect((await app.call('GET', `/v1/worlds/${long.world.id}`, { token: parent.accessToken })).status).toBe(200);
    expect((await app.call('GET', '/v1/accounts', { token: long.accessToken })).body.data).toHaveLength(1);
    expect(await sweepExpiredWorlds(app.orm.em.fork())).toBe(0);
  });
});

describe('a world gone out of band', () => {
  /** The claims of an access token (its signature is the server's business). */
  const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const refresh = (refreshToken: string) => app.call('POST', '/v1/auth/refresh', { body: { refreshToken } });

  it('its refresh token never issues a token without `wld`: refused once its world row is gone, whatever removed it', async () => {
    const owner = await app.createUser();
    const [first, second] = [await scenarioWorld(owner), await scenarioWorld(owner)];
    // Alive, a refresh keeps the claim.
    const alive = await refresh(first.refreshToken);
    expect(alive.status, JSON.stringify(alive.body)).toBe(200);
    expect(claims(alive.body.data.accessToken)).toMatchObject({ sub: first.world.id, wld: true });

    // Its worlds row deleted by hand: the user row and the session stay, but it is no world of anyone's.
    await app.db.query('delete from worlds where id = $1', [first.world.id]);
    const orphaned = await refresh(alive.body.data.refreshToken);
    expectRefusal(orphaned, [401, 'UNAUTHENTICATED', undefined], JSON.stringify(orphaned.body));

    // The parent's user deleted out of band: the worlds row cascades away, the child's user row does not.
    await app.db.query('delete from users where id = $1', [owner.id]);
    expect((await app.db.query('select 1 from users where id = $1', [second.world.id])).rowCount).toBe(1);
    const parentless = await refresh(second.refreshToken);
    expectRefusal(parentless, [401, 'UNAUTHENTICATED', undefined], JSON.stringify(parentless.body));
    expect((await app.call('GET', '/v1/accounts', { token: second.accessToken })).status).toBe(401);
  });

  it('a world session whose token is not marked (older code issued it) still gets `wld`, and is refused past the TTL', async () => {
    const owner = await app.createUser();
    const child = await scenarioWorld(owner);
    await app.db.query('update refresh_tokens set world = false where user_id = $1', [child.world.id]);
    const alive = await refresh(child.refreshToken);
    expect(alive.status, JSON.stringify(alive.body)).toBe(200);
    expect(claims(alive.body.data.accessToken)).toMatchObject({ sub: child.world.id, wld: true });

    await app.db.query('update refresh_tokens set world = false where user_id = $1', [child.world.id]);
    // Past the TTL in the worlds' wall time, which `pnpm test:instants` shifts (the server's now() it does not).
    await app.db.query("update worlds set expires_at = sandbank_wall_now() - interval '1 second' where id = $1", [
      child.world.id,
    ]);
    const expired = await refresh(alive.body.data.refreshToken);
    expectRefusal(expired, [401, 'UNAUTHENTICATED', undefined], JSON.stringify(expired.body));
  });
});

describe('a refresh racing its world’s removal', () => {
  it('waits for the removal and is refused: the two lock the user row in the same order, so they never deadlock', async () => {
    const owner = await app.createUser();
    const child = await scenarioWorld(owner);
    // Requests of this database waiting on a lock.
    const waiting = async () =>
      (
        await app.db.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).rows[0]?.n;
    // Holds the child's user row, so the removal (which deletes it) waits first, and the refresh after it.
    const blocker = await app.db.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from users where id = $1 for update', [child.world.id]);
      const removal = app.call('DELETE', `/v1/worlds/${child.world.id}`, { token: owner.accessToken });
      await expect.poll(waiting).toBe(1);
      const refreshed = app.call('POST', '/v1/auth/refresh', { body: { refreshToken: child.refreshToken } });
      await expect.poll(waiting).toBe(2);
      await blocker.query('commit');
      // Had the refresh claimed its token before waiting on the user row (the order before), the removal's
      // cascade would wait on that token while the refresh waits on the user: PostgreSQL aborts one (a 500).
      const [removed, refused] = await Promise.all([removal, refreshed]);
      expect([removed.status, removed.body.data?.id]).toEqual([200, child.world.id]);
      expectRefusal(refused, [401, 'UNAUTHENTICATED', undefined], JSON.stringify(refused.body));
    } finally {
      blocker.release();
    }
  });
});
