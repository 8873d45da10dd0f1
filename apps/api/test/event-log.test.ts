/**
 * The event log (docs/concepts/events-and-sync.md): GET /v1/events and /v1/events/:id, and the gap-free property proven
 * for real — transactions that commit out of order while a poller follows `nextCursor`.
 */
import { pause, waitUntil } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent, openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A small seeded PRNG (mulberry32), so a failing interleaving can be replayed from its seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function page(user: TestUser, query: string) {
  const res = await app.call<Output['events']['listEvents']>('GET', `/v1/events${query}`, { token: user.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A poller as a client would write it: follow nextCursor, record every id, never stop until told. */
function startPoller(user: TestUser, random: () => number) {
  const seen: string[] = [];
  let cursor: string | undefined;
  let polls = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const limit = 1 + Math.floor(random() * 7);
      const body = await page(user, `?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      seen.push(...body.data.map((event) => event.id));
      cursor = body.meta.nextCursor;
      polls += 1;
      if (!body.meta.hasMore) await pause(5, 'a reader at the end of the log polls again');
    }
  })();
  return {
    seen,
    polls: () => polls,
    /**
     * Stops, then reads on as a client catching up would, until it has as many distinct events as
     * are committed (or 20 s pass; the test's own checks then say what is missing). The log's horizon
     * is the server's oldest running transaction, in any database: another test file's open
     * transaction holds the newest events back for a moment, and they are served once it ends.
     */
    async drain() {
      stopped = true;
      await loop;
      const committed = (await committedEventIds(user.id)).length;
      const deadline = performance.now() + 20_000;
      for (;;) {
        const body = await page(user, `?limit=50${cursor ? `&after=${cursor}` : ''}`);
        seen.push(...body.data.map((event) => event.id));
        cursor = body.meta.nextCursor;
        if (body.meta.hasMore) continue;
        if (new Set(seen).size >= committed || performance.now() > deadline) return seen;
        await pause(20, 'events behind a transaction still open elsewhere on the server');
      }
    },
  };
}

async function committedEventIds(userId: string): Promise<string[]> {
  const { rows } = await app.db.query<{ id: string }>('select id from events where user_id = $1', [userId]);
  return rows.map((row) => row.id).sort();
}

describe('GET /v1/events', () => {
  it('lists only the caller’s events, in commit-safe order, each exactly as GET /v1/events/:id serves it', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const accountId = await openAccount(app, owner);
    for (const amount of [500, -200, 300]) expect((await simulate(app, owner, { accountId, amount })).status).toBe(201);
    await simulate(app, stranger, { accountId: await openAccount(app, stranger), amount: 100 });

    const first = await page(owner, '?limit=2');
    expect(first.data).toHaveLength(2);
    expect(first.meta.hasMore).toBe(true);
    const second = await page(owner, `?limit=2&after=${first.meta.nextCursor}`);
    expect(second.data).toHaveLength(1);
    expect(second.meta.hasMore).toBe(false);
    const events = [...first.data, ...second.data];
    expect(events.map((event) => event.data.transaction?.amount)).toEqual([500, -200, 300]);
    expect(events.map((event) => event.id).sort()).toEqual(await committedEventIds(owner.id));

    const empty = await page(owner, `?after=${second.meta.nextCursor}`);
    expect(empty).toEqual({ data: [], meta: { nextCursor: second.meta.nextCursor, hasMore: false } });

    for (const event of events) {
      const one = await app.call('GET', `/v1/events/${event.id}`, { token: owner.accessToken });
      expect(one.status).toBe(200);
      expect(one.body.data).toEqual(event);
      expect(Object.keys(one.body.data)).toEqual(['id', 'type', 'createdAt', 'data']);
      expect((await app.call('GET', `/v1/events/${event.id}`, { token: stranger.accessToken })).status).toBe(404);
    }
  });

  it('filters by type and rejects unknown types and malformed cursors with 400 at their path', async () => {
    const owner = await app.createUser();
    const accountId = await openAccount(app, owner);
    const created = await simulate(app, owner, { accountId, amount: 900 });
    const pending = await simulate(app, owner, { accountId, amount: -100, status: 'pending' });
    expect([created.status, pending.status], JSON.stringify(pending.body)).toEqual([201, 201]);
    const voided = await app.call('POST', `/v1/transactions/${pending.body.data.transaction.id}/void`, {
      token: owner.accessToken,
      body: {},
    });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);

    const removed = await page(owner, '?types=transaction.removed');
    expect(removed.data.map((event) => event.type)).toEqual(['transaction.removed']);
    const both = await page(owner, '?types=transaction.created,transaction.removed');
    expect(both.data.map((event) => event.type)).toEqual(['transaction.created', 'transaction.created', 'transaction.removed']);

    const badType = await app.call('GET', '/v1/events?types=transaction.exploded', { token: owner.accessToken });
    expect(badType.status).toBe(400);
    expect(badType.body.details[0].path).toMatch(/^types/);
    const garbage = Buffer.from(JSON.stringify({ v: 1, t: '1; drop table events', s: '0' })).toString('base64url');
    for (const after of ['not*base64', 'bm90IGpzb24', garbage, Buffer.from('{"v":2,"t":"1","s":"1"}').toString('base64url')]) {
      const res = await app.call('GET', `/v1/events?after=${after}`, { token: owner.accessToken });
      expect(res.status, after).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'after' }] });
    }
  });
});

describe('no gaps when transactions commit out of order', () => {
  it('orders by transaction id as a number across digit boundaries (9 before 10 before 100)', async () => {
    const owner = await app.createUser();
    const accountId = await insertAccount(app.db, owner.id);
    // The ids set by hand must be older than every running transaction, or the snapshot guard holds them back.
    // Even a fresh cluster is past 100: initdb and the migrations use hundreds of transaction ids.
    const { rows } = await app.db.query<{ current: string }>('select pg_current_xact_id()::text as current');
    expect(BigInt(rows[0]?.current ?? '0')).toBeGreaterThan(100n);
    const ids: string[] = [];
    // As text, '10' < '100' < '9'; as numbers, 9 < 10 < 100.
    for (const txid of ['100', '9', '10']) {
      const { eventId } = await insertTransactionEvent(app.db, { accountId });
      await app.db.query('update events set txid = $1::xid8 where id = $2', [txid, eventId]);
      ids.push(eventId);
    }
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const body = await page(owner, `?limit=1${cursor ? `&after=${cursor}` : ''}`);
      seen.push(...body.data.map((event) => event.id));
      cursor = body.meta.nextCursor;
    }
    expect(seen).toEqual([ids[1], ids[2], ids[0]]);
  });

  it('holds back events behind a transaction still open, and serves all of them once it commits', async () => {
    const owner = await app.createUser();
    const accountId = await openAccount(app, owner);
    const poller = startPoller(owner, seeded(1));
    const early = await app.db.connect();
    let heldEventId: string;
    try {
      await early.query('begin');
      // This transaction gets its id first, then stays open while later ones commit.
      ({ eventId: heldEventId } = await insertTransactionEvent(early, { accountId: await insertAccount(early, owner.id) }));
      for (let i = 0; i < 8; i++) expect((await simulate(app, owner, { accountId, amount: 100 + i })).status).toBe(201);
      const pollsBefore = poller.polls();
      await waitUntil(() => poller.polls() >= pollsBefore + 10, { intervalMs: 5, what: 'ten more polls' });
      // Eight later events are committed, yet none may be served: a cursor past them would skip the held one.
      expect(poller.seen).toEqual([]);
      await early.query('commit');
    } finally {
      early.release();
    }
    const seen = await poller.drain();
    expect(seen).toContain(heldEventId);
    expect(seen).toHaveLength(new Set(seen).size);
    expect([...seen].sort()).toEqual(await committedEventIds(owner.id));
  });

  it('a poller following nextCursor sees every committed event exactly once under random interleavings', async () => {
    const owner = await app.createUser();
    const accountId = await openAccount(app, owner);
    const random = seeded(20261123);
    const poller = startPoller(owner, random);
    const rolledBack: string[] = [];
    // Six SQL writers hold their transactions open for random times (so commits overtake each
    // other); some roll back. Booking requests through the API run between them.
    const writers = Array.from({ length: 6 }, async (_, writer) => {
      const client = await app.db.connect();
      try {
        const ownAccount = await insertAccount(client, owner.id);
        for (let round = 0; round < 6; round++) {
          await client.query('begin');
          const { eventId } = await insertTransactionEvent(client, { accountId: ownAccount });
          await client.query('select pg_sleep($1)', [random() * 0.08]);
          if ((writer + round) % 5 === 0) {
            await client.query('rollback');
            rolledBack.push(eventId);
          } else await client.query('commit');
        }
      } finally {
        client.release();
      }
    });
    const booker = (async () => {
      for (let i = 0; i < 20; i++) expect((await simulate(app, owner, { accountId, amount: 10 + i })).status).toBe(201);
    })();
    await Promise.all([...writers, booker]);
    const seen = await poller.drain();

    const committed = await committedEventIds(owner.id);
    expect(committed.length).toBe(6 * 6 - rolledBack.length + 20);
    expect(seen).toHaveLength(new Set(seen).size);
    expect([...seen].sort()).toEqual(committed);
    for (const id of rolledBack) expect(seen).not.toContain(id);
  });
});
