/**
 * Disposable worlds: snapshots, forks, restore, isolation, limits and bad input, over
 * real HTTP against real PostgreSQL. A fork must equal its snapshot: the same accounts, balances,
 * holds, transactions in every status (a reversal pointing at its own original), schedules and
 * their runs, and the clock offset — with new ids, and every instant moved by one shift, so that
 * relative dates ("three days ago") are what they were.
 */
import { openAccount, type SimulationBody, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { comparableWorld, idsOf, readWorld, shiftBetween, type WorldState } from './world-state.ts';

const DAY = 86_400_000;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A world with something of everything: back-dated bookings, holds, a void, a reversal, an expiry, a schedule with runs, a moved clock. */
async function buildWorld(user: TestUser): Promise<void> {
  const main = await openAccount(app, user, 'Główne');
  const savings = await openAccount(app, user, 'Oszczędności');
  const clockNow = Date.parse((await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.now);
  const daysAgo = (days: number) => new Date(clockNow - days * DAY).toISOString();
  const book = async (body: Record<string, unknown>) => {
    const res = await simulate(app, user, body as SimulationBody);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.transaction.id as string;
  };
  const act = async (id: string, verb: string, body: Record<string, unknown> = {}) => {
    const res = await app.call('POST', `/v1/transactions/${id}/${verb}`, { token: user.accessToken, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  };
  await book({ accountId: main, amount: 100_000, description: 'Wynagrodzenie', date: daysAgo(10), category: 'salary' });
  await book({ accountId: main, amount: -5_000, description: 'Biedronka', date: daysAgo(3), merchant: 'Biedronka' });
  await book({ accountId: main, amount: -2_000, description: 'Orlen', status: 'pending', settleAfter: 'P3D' });
  await act(await book({ accountId: main, amount: -300, description: 'Kino', status: 'pending' }), 'void');
  await act(await book({ accountId: main, amount: 4_000, description: 'Zwrot', date: daysAgo(2) }), 'reverse', { amount: 1_000 });
  await book({ accountId: main, amount: 700, description: 'BLIK', status: 'pending', expireAfter: 'P5D' });
  await book({ accountId: savings, amount: 50_000, description: 'Przelew', date: daysAgo(30) });
  const schedule = await app.call('POST', `/v1/accounts/${savings}/schedules`, {
    token: user.accessToken,
    body: { amount: -1_000, description: 'Netflix', rrule: 'FREQ=WEEKLY', startAt: daysAgo(20) },
  });
  expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
  const advanced = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'PT6H' } });
  expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
}

const snapshot = async (user: { accessToken: string }, name = 'snap') => {
  const res = await app.call<Output['worlds']['takeSnapshot']>('POST', '/v1/sandbox/snapshots', {
    token: user.accessToken,
    body: { name },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const fork = (token: string, body: Record<string, unknown>) => app.call('POST', '/v1/worlds', { token, body });
const forked = async (token: string, body: Record<string, unknown>) => {
  const res = await fork(token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

describe('a fork equals its snapshot', () => {
  let parent: TestUser;
  let original: WorldState;
  let snap: Output['worlds']['takeSnapshot']['data'];
  beforeAll(async () => {
    parent = await app.createUser();
    await buildWorld(parent);
    original = await readWorld(app, parent.accessToken);
    snap = await snapshot(parent, 'everything');
  });

  it('keeps what the world held and its clock', () => {
    expect(snap).toMatchObject({
      name: 'everything',
      accounts: 2,
      transactions: original.transactions.length,
      schedules: 1,
      clockOffsetMs: original.clock.offsetMs,
    });
    expect(original.clock.offsetMs).toBeGreaterThan(0);
    expect(original.schedules[0]!.runs).toBeGreaterThanOrEqual(2);
  });

  it('same shape, balances, holds, statuses, runs and relative dates; new ids', async () => {
    const before = Date.now();
    const child = await forked(parent.accessToken, { snapshotId: snap.id });
    expect(child.world).toMatchObject({ parentId: parent.id, source: 'snapshot', snapshotId: snap.id });
    expect(child.apiKey.key).toMatch(/^sbk_/);
    expect(Date.parse(child.world.expiresAt) - Date.parse(child.world.createdAt)).toBe(3_600_000);
    const copy = await readWorld(app, child.accessToken);
    const shift = shiftBetween(original, copy);
    // The child's clock has the snapshot's offset; every instant moved by the real time since the snapshot.
    expect(copy.clock.offsetMs).toBe(snap.clockOffsetMs);
    expect(shift).toBeGreaterThanOrEqual(0);
    expect(shift).toBeLessThanOrEqual(Date.parse(copy.clock.now) - Date.parse(snap.takenAt));
    expect(shift).toBeLessThan(Date.now() - before + 60_000);
    expect(comparableWorld(copy, shift)).toEqual(comparableWorld(original, 0));
    const originalIds = new Set(idsOf(original));
    expect(idsOf(copy).filter((id) => originalIds.has(id))).toEqual([]);
    // Transaction ids keep the snapshot's order (ties in history lists fall the same way).
    const rank = (world: WorldState) => {
      const ids = world.transactions.map((transaction) => transaction.id as string);
      return ids.map((id) => [...ids].sort().indexOf(id));
    };
    expect(rank(copy)).toEqual(rank(original));
  });

  it('the child works as a world: it books, advances, settles its copied hold, and its API key pulls', async () => {
    const child = await forked(parent.accessToken, { snapshotId: snap.id, ttl: 'PT10M' });
    const token = child.accessToken;
    const accounts = (await app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts', { token })).body.data;
    const main = accounts.find((account) => account.name === 'Główne')!;
    const booked = await simulate(app, { accessToken: token }, { accountId: main.id, amount: -1_000, description: 'Żabka' });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.data.balance).toBe(main.balance - 1_000);
    const advanced = await app.call('POST', '/v1/clock/advance', { token, body: { by: 'P4D' } });
    expect(advanced.status).toBe(200);
    expect(advanced.body.data.fired.settled).toBe(1); // the Orlen hold, copied with its settleAfter
    const pulled = await app.call('GET', `/api/owner/${child.world.id}/transactions`, { token: child.apiKey.key });
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
    expect(pulled.body.meta.total).toBeGreaterThan(0);
    // The parent's world did not move.
    expect(comparableWorld(await readWorld(app, parent.accessToken), 0)).toEqual(comparableWorld(original, 0));
  });

  it('a fork by API key works as one by token', async () => {
    const key = await app.call('POST', '/v1/api-keys', { token: parent.accessToken, body: { name: 'CI' } });
    const child = await forked(key.body.data.key, { snapshotId: snap.id });
    expect(child.world.parentId).toBe(parent.id);
    const listed = await app.call<Output['worlds']['listWorlds']>('GET', '/v1/worlds', { token: key.body.data.key });
    expect(listed.body.data.map((world) => world.id)).toContain(child.world.id);
  });

  it('forks in parallel while the parent books: nothing waits, nothing fails', async () => {
    const account = original.accounts[0]!.id;
    const [forks, bookings] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => fork(parent.accessToken, { snapshotId: snap.id }))),
      Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          simulate(app, parent, { accountId: account, amount: 1, description: `parallel ${i}`, externalTxnId: `par-${i}` }),
        ),
      ),
    ]);
    expect(forks.map((res) => res.status)).toEqual(Array(6).fill(201));
    expect(bookings.map((res) => res.status)).toEqual(Array(6).fill(201));
    const ids = new Set(forks.flatMap((res) => [res.body.data.world.id]));
    expect(ids.size).toBe(6);
    // Each child got the snapshot, not the bookings made beside the forks.
    const child = await readWorld(app, forks[0]?.body.data.accessToken);
    expect(child.transactions.some((t) => t.description.startsWith('parallel'))).toBe(false);
  });
});

describe('isolation', () => {
  it('a child cannot read its parent or a sibling; the parent reads a child only through its credentials', async () => {
    const parent = await app.createUser();
    const parentAccount = await openAccount(app, parent, 'Rodzic');
    await simulate(app, parent, { accountId: parentAccount, amount: 1_000 });
    const snap = await snapshot(parent);
    const a = await forked(parent.accessToken, { snapshotId: snap.id });
    const b = await forked(parent.accessToken, { snapshotId: snap.id });
    const aAccount = (await app.call('GET', '/v1/accounts', { token: a.accessToken })).body.data[0].id;
    const bAccount = (await app.call('GET', '/v1/accounts', { token: b.accessToken })).body.data[0].id;
    const get = (token: string, path: string) => app.call('GET', path, { token });
    for (const [token, account] of [
      [a.accessToken, parentAccount],
      [a.accessToken, bAccount],
      [parent.accessToken, aAccount],
    ] as const) {
      expectRefusal(await get(token, `/v1/accounts/${account}`), [404, 'NOT_FOUND', undefined]);
      expectRefusal(await get(token, `/v1/accounts/${account}/transactions`), [404, 'NOT_FOUND', undefined]);
    }
    // The pull endpoint with a child's key: its own world only.
    for (const owner of [parent.id, b.world.id, parent.email]) {
      expectRefusal(await get(a.apiKey.key, `/api/owner/${encodeURIComponent(owner)}/transactions`), [
        404,
        'NOT_FOUND',
        undefined,
      ]);
    }
    expect((await get(a.apiKey.key, `/api/owner/${a.world.id}/transactions`)).status).toBe(200);
    // Worlds and snapshots are their owner's: a child sees neither its parent's snapshot nor its siblings.
    expectRefusal(await get(a.accessToken, `/v1/sandbox/snapshots/${snap.id}`), [404, 'NOT_FOUND', undefined]);
    expectRefusal(await get(a.accessToken, `/v1/worlds/${b.world.id}`), [404, 'NOT_FOUND', undefined]);
    expect((await get(a.accessToken, '/v1/worlds')).body.data).toEqual([]);
    // A child takes snapshots of itself, but makes no worlds of its own (of its parent's snapshot neither).
    const own = await snapshot(a, 'child');
    for (const snapshotId of [own.id, snap.id]) {
      expectRefusal(await fork(a.accessToken, { snapshotId }), [403, 'FORBIDDEN', undefined]);
    }
    // The parent lists both, and can get and end each.
    const listed = (await app.call<Output['worlds']['listWorlds']>('GET', '/v1/worlds', { token: parent.accessToken })).body;
    expect(listed.data.map((world) => world.id).sort()).toEqual([a.world.id, b.world.id].sort());
    expect(listed.meta.total).toBe(2);
    expect((await get(parent.accessToken, `/v1/worlds/${a.world.id}`)).body.data).toEqual(a.world);
    // A sibling cannot end another; another user neither.
    const stranger = await app.createUser();
    for (const token of [b.accessToken, stranger.accessToken]) {
      expectRefusal(await app.call('DELETE', `/v1/worlds/${a.world.id}`, { token }), [404, 'NOT_FOUND', undefined]);
    }
  });

  it('a child world has no password: logging in as it fails', async () => {
    const parent = await app.createUser();
    const snap = await snapshot(parent);
    const child = await forked(parent.accessToken, { snapshotId: snap.id });
    for (const password of ['!world!!', '        ', 'correct-horse-battery']) {
      const res = await app.call('POST', '/v1/auth/login', { body: { email: child.world.email, password } });
      expect(res.status).toBe(401);
    }
    // Its refresh token works, as a session's does.
    const refreshed = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: child.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect((await app.call('GET', '/v1/auth/me', { token: refreshed.body.data.accessToken })).body.data.id).toBe(child.world.id);
  });
});

describe('restore', () => {
  it('brings the world back to the snapshot exactly; cursors issued before it expire', async () => {
    const user = await app.createUser();
    await buildWorld(user);
    const original = await readWorld(app, user.accessToken);
    const snap = await snapshot(user);
    // The world moves on: more bookings, a void, a new account, the clock far ahead.
    const main = original.accounts[0]!.id;
    await simulate(app, user, { accountId: main, amount: -10_000, description: 'Później' });
    const pending = original.transactions.find((t) => t.status === 'pending' && t.amount < 0)!;
    await app.call('POST', `/v1/transactions/${pending.id}/void`, { token: user.accessToken, body: {} });
    await openAccount(app, user, 'Nowe');
    await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P40D' } });
    const cursor = (await app.call('GET', '/v1/transactions/sync', { token: user.accessToken })).body.data.nextCursor;

    const res = await app.call('POST', '/v1/sandbox/restore', { token: user.accessToken, body: { snapshotId: snap.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.snapshot.id).toBe(snap.id);
    expect(res.body.data.removed.accounts).toBe(3);
    const restored = await readWorld(app, user.accessToken);
    const shift = shiftBetween(original, restored);
    expect(restored.clock.offsetMs).toBe(snap.clockOffsetMs);
    expect(comparableWorld(restored, shift)).toEqual(comparableWorld(original, 0));
    const synced = await app.call('GET', `/v1/transactions/sync?cursor=${encodeURIComponent(cursor)}`, {
      token: user.accessToken,
    });
    expectRefusal(synced, [410, 'CURSOR_EXPIRED', undefined]);
    // A restore twice gives the same world again.
    await app.call('POST', '/v1/sandbox/restore', { token: user.accessToken, body: { snapshotId: snap.id } });
    const again = await readWorld(app, user.accessToken);
    expect(comparableWorld(again, shiftBetween(original, again))).toEqual(comparableWorld(original, 0));
  });

  it("another user's snapshot, or an unknown one, is 404 and changes nothing", async () => {
    const owner = await app.createUser();
    const snap = await snapshot(owner);
    const other = await app.createUser();
    await openAccount(app, other, 'Moje');
    for (const snapshotId of [snap.id, '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d']) {
      const res = await app.call('POST', '/v1/sandbox/restore', { token: other.accessToken, body: { snapshotId } });
      expectRefusal(res, [404, 'NOT_FOUND', undefined]);
    }
    expect((await app.call('GET', '/v1/accounts', { token: other.accessToken })).body.data).toHaveLength(1);
  });
});

describe('snapshots', () => {
  it('are listed, read and deleted by their owner; a deleted one forks no more, its worlds live on', async () => {
    const user = await app.createUser();
    const first = await snapshot(user, 'first');
    const second = await snapshot(user, 'second');
    const listed = await app.call<Output['worlds']['listSnapshots']>('GET', '/v1/sandbox/snapshots', { token: user.accessToken });
    expect(listed.body.data.map((s) => s.name)).toEqual(['second', 'first']);
    expect((await app.call('GET', `/v1/sandbox/snapshots/${first.id}`, { token: user.accessToken })).body.data).toEqual(first);
    const child = await forked(user.accessToken, { snapshotId: second.id });
    const deleted = await app.call('DELETE', `/v1/sandbox/snapshots/${second.id}`, { token: user.accessToken });
    expect(deleted.status).toBe(200);
    expectRefusal(await fork(user.accessToken, { snapshotId: second.id }), [404, 'NOT_FOUND', undefined]);
    const world = await app.call('GET', `/v1/worlds/${child.world.id}`, { token: user.accessToken });
    expect(world.body.data.snapshotId).toBeNull();
    expectRefusal(await app.call('DELETE', `/v1/sandbox/snapshots/${second.id}`, { token: user.accessToken }), [
      404,
      'NOT_FOUND',
      undefined,
    ]);
  });
});

describe('a snapshot of a scenario', () => {
  it("keeps the world the scenario builds, owned by the caller, without touching the caller's world", async () => {
    const user = await app.createUser();
    await openAccount(app, user, 'Moje');
    const scenario = {
      version: 1,
      seed: 3,
      accounts: [{ key: 's', name: 'Student', openingBalance: 50_000, history: { months: 2, profile: 'student' } }],
    };
    const res = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'student', scenario } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'student', accounts: 1, clockOffsetMs: 0 });
    expect(res.body.data.transactions).toBeGreaterThan(20);
    // The caller's world is as it was; the temporary world is gone.
    expect(
      (await app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts', { token: user.accessToken })).body.data.map(
        (a) => a.name,
      ),
    ).toEqual(['Moje']);
    expect((await app.call('GET', '/v1/worlds', { token: user.accessToken })).body.meta.total).toBe(0);
    const { rows } = await app.db.query(`select count(*)::int as n from worlds where parent_id = $1`, [user.id]);
    expect(rows[0].n).toBe(0);
    // Forks of it hold the scenario's world, the same for every fork.
    const a = await readWorld(app, (await forked(user.accessToken, { snapshotId: res.body.data.id })).accessToken);
    const b = await readWorld(app, (await forked(user.accessToken, { snapshotId: res.body.data.id })).accessToken);
    expect(a.transactions).toHaveLength(res.body.data.transactions);
    expect(comparableWorld(b, shiftBetween(a, b))).toEqual(comparableWorld(a, 0));
  });
});

describe('a world from a scenario', () => {
  it('applies the scenario to the new world; one that does not apply leaves no world', async () => {
    const parent = await app.createUser();
    const scenario = {
      version: 1,
      seed: 7,
      accounts: [
        { key: 'a', name: 'Konto', openingBalance: 10_000, transactions: [{ at: '-P3D', amount: -1_000, description: 'Lidl' }] },
      ],
    };
    const child = await forked(parent.accessToken, { scenario, ttl: 'PT5M' });
    expect(child.world).toMatchObject({ source: 'scenario', snapshotId: null });
    const accounts = (await app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts', { token: child.accessToken }))
      .body.data;
    expect(accounts.map((account) => [account.name, account.balance])).toEqual([['Konto', 9_000]]);
    const broke = {
      ...scenario,
      accounts: [{ key: 'a', name: 'Konto', transactions: [{ at: '-P1D', amount: -1_000, description: 'x' }] }],
    };
    const refused = await fork(parent.accessToken, { scenario: broke });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await app.call('GET', '/v1/worlds', { token: parent.accessToken })).body.meta.total).toBe(1);
    const [row] = (
      await app.db.query(`select count(*)::int as n from worlds w join users u on u.id = w.id where w.parent_id = $1`, [
        parent.id,
      ])
    ).rows;
    expect(row.n).toBe(1);
  });
});

describe('bad input', () => {
  it('answers the error contract and creates nothing', async () => {
    const user = await app.createUser();
    const snap = await snapshot(user);
    const other = await app.createUser();
    const otherSnap = await snapshot(other);
    const cases: [Record<string, unknown>, [number, string, string | undefined]][] = [
      [{ snapshotId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d' }, [404, 'NOT_FOUND', undefined]],
      [{ snapshotId: otherSnap.id }, [404, 'NOT_FOUND', undefined]],
      [{ snapshotId: 'not-a-uuid' }, [400, 'VALIDATION_ERROR', 'snapshotId']],
      [{ snapshotId: snap.id, ttl: 'P8D' }, [400, 'VALIDATION_ERROR', 'ttl']],
      [{ snapshotId: snap.id, ttl: 'PT0S' }, [400, 'VALIDATION_ERROR', 'ttl']],
      [{ snapshotId: snap.id, ttl: 'P1M' }, [400, 'VALIDATION_ERROR', 'ttl']],
      [{ snapshotId: snap.id, ttl: '-PT1H' }, [400, 'VALIDATION_ERROR', 'ttl']],
      [{ snapshotId: snap.id, ttl: 3600 }, [400, 'VALIDATION_ERROR', 'ttl']],
      [{}, [400, 'VALIDATION_ERROR', 'snapshotId']],
      [{ snapshotId: snap.id, scenario: { version: 1, seed: 1, accounts: [] } }, [400, 'VALIDATION_ERROR', 'snapshotId']],
      [{ snapshotId: snap.id, password: 'x' }, [400, 'VALIDATION_ERROR', 'password']],
    ];
    for (const [body, expected] of cases) expectRefusal(await fork(user.accessToken, body), expected, JSON.stringify(body));
    expectRefusal(await app.call('POST', '/v1/worlds', { body: { snapshotId: snap.id } }), [401, 'UNAUTHENTICATED', undefined]);
    expectRefusal(await app.call('POST', '/v1/worlds', { token: 'sbk_unknown', body: { snapshotId: snap.id } }), [
      401,
      'UNAUTHENTICATED',
      undefined,
    ]);
    expectRefusal(await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: '' } }), [
      400,
      'VALIDATION_ERROR',
      'name',
    ]);
    expectRefusal(await app.call('GET', '/v1/worlds/not-a-uuid', { token: user.accessToken }), [400, 'VALIDATION_ERROR', 'id']);
    expect((await app.call('GET', '/v1/worlds', { token: user.accessToken })).body.meta.total).toBe(0);
    // The longest and shortest TTLs are taken.
    for (const ttl of ['P7D', 'PT1S', 'P1W'])
      expect((await fork(user.accessToken, { snapshotId: snap.id, ttl })).status).toBe(201);
  });
});

describe('limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ LIMIT_WORLDS: '3', LIMIT_SNAPSHOTS: '2', LIMIT_SNAPSHOT_TRANSACTIONS: '2' });
  });
  afterAll(() => limited.close());

  it('live worlds per parent, snapshots per user and transactions per snapshot answer 422 LIMIT_EXCEEDED', async () => {
    const user = await limited.createUser();
    const account = await openAccount(limited, user, 'A');
    await simulate(limited, user, { accountId: account, amount: 100 });
    const take = (name: string) => limited.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name } });
    const snap = (await take('one')).body.data;
    expect((await take('two')).status).toBe(201);
    expectRefusal(await take('three'), [422, 'LIMIT_EXCEEDED', 'snapshots']);
    await limited.call('DELETE', `/v1/sandbox/snapshots/${snap.id}`, { token: user.accessToken });
    const kept = (await take('again')).body.data;
    // Parallel forks past the limit: exactly the limit's worth get through.
    const make = () => limited.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId: kept.id } });
    const results = await Promise.all(Array.from({ length: 5 }, make));
    expect(results.map((res) => res.status).sort()).toEqual([201, 201, 201, 422, 422]);
    expectRefusal(results.find((res) => res.status === 422) ?? results[0]!, [422, 'LIMIT_EXCEEDED', 'worlds']);
    // Ending one makes room for one.
    const one = results.find((res) => res.status === 201)?.body.data.world.id;
    expect((await limited.call('DELETE', `/v1/worlds/${one}`, { token: user.accessToken })).status).toBe(200);
    expect((await make()).status).toBe(201);
    expectRefusal(await make(), [422, 'LIMIT_EXCEEDED', 'worlds']);
    // A world of more transactions than a snapshot keeps.
    await limited.call('DELETE', `/v1/sandbox/snapshots/${kept.id}`, { token: user.accessToken });
    await simulate(limited, user, { accountId: account, amount: 100 });
    await simulate(limited, user, { accountId: account, amount: 100 });
    expectRefusal(await take('big'), [422, 'LIMIT_EXCEEDED', 'transactions']);
  });
});
