import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
let user: TestUser;
let accountId: string;
const ids: Record<string, string> = {};

// Back-dated history: two on the same instant (ordered by id), and neighbours of a day's bounds.
const HISTORY: [string, string][] = [
  ['d1-late', '2026-03-01T23:59:59.999Z'],
  ['d2-start', '2026-03-02T00:00:00.000Z'],
  ['d2-noon-a', '2026-03-02T12:00:00.000Z'],
  ['d2-noon-b', '2026-03-02T12:00:00.000Z'],
  ['d2-end', '2026-03-02T23:59:59.999Z'],
  ['d3-start', '2026-03-03T00:00:00.000Z'],
];

beforeAll(async () => {
  app = await startTestApp();
  user = await app.createUser();
  accountId = await openAccount(app, user, 'History');
  for (const [key, date] of HISTORY) {
    const res = await simulate(app, user, { accountId, amount: 100, date, externalTxnId: key });
    expect(res.status).toBe(201);
    ids[key] = res.body.data.transaction.id;
  }
});
afterAll(() => app.close());

const history = (query = '', token = user.accessToken) =>
  app.call('GET', `/v1/accounts/${accountId}/transactions${query}`, { token });
const keys = (body: { data: { externalTxnId: string }[] }) => body.data.map((t) => t.externalTxnId);

describe('GET /v1/accounts/:id/transactions', () => {
  it('lists newest first (date, then id) with the defaults page 1, limit 50', async () => {
    const res = await history();
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['d3-start', 'd2-end', 'd2-noon-b', 'd2-noon-a', 'd2-start', 'd1-late']);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 6, hasMore: false });
    expect(res.body.data[0]).toEqual({
      id: ids['d3-start'],
      externalTxnId: 'd3-start',
      accountId,
      amount: 100,
      currency: 'PLN',
      date: '2026-03-03T00:00:00.000Z',
      description: '',
      raw: { source: 'sandbank-simulator' },
      status: 'posted',
      postedAt: '2026-03-03T00:00:00.000Z',
      version: 1,
      merchant: null,
      category: null,
      reversalOf: null,
    });
  });

  it('covers whole UTC days with date-only bounds, inclusive', async () => {
    expect(keys((await history('?from=2026-03-02&to=2026-03-02')).body)).toEqual([
      'd2-end',
      'd2-noon-b',
      'd2-noon-a',
      'd2-start',
    ]);
    expect(keys((await history('?from=2026-03-03')).body)).toEqual(['d3-start']);
    expect(keys((await history('?to=2026-03-01')).body)).toEqual(['d1-late']);
  });

  it('treats timestamp bounds as exact and inclusive', async () => {
    const res = await history('?from=2026-03-02T12:00:00.000Z&to=2026-03-02T23:59:59.999Z');
    expect(keys(res.body)).toEqual(['d2-end', 'd2-noon-b', 'd2-noon-a']);
    const offset = await history(`?from=${encodeURIComponent('2026-03-02T13:00:00.000+01:00')}&to=2026-03-02T12:00:00.000Z`);
    expect(keys(offset.body)).toEqual(['d2-noon-b', 'd2-noon-a']);
  });

  it('paginates with total and hasMore', async () => {
    const first = await history('?limit=4');
    expect(keys(first.body)).toEqual(['d3-start', 'd2-end', 'd2-noon-b', 'd2-noon-a']);
    expect(first.body.meta).toEqual({ page: 1, limit: 4, total: 6, hasMore: true });
    const second = await history('?limit=4&page=2');
    expect(keys(second.body)).toEqual(['d2-start', 'd1-late']);
    expect(second.body.meta).toEqual({ page: 2, limit: 4, total: 6, hasMore: false });
    const beyond = await history('?limit=4&page=3');
    expect(beyond.body).toEqual({ data: [], meta: { page: 3, limit: 4, total: 6, hasMore: false } });
  });

  it.each([
    ['from after to (days)', '?from=2026-03-03&to=2026-03-02', 'from'],
    ['from after to (timestamps)', '?from=2026-03-02T12:00:00.001Z&to=2026-03-02T12:00:00.000Z', 'from'],
    ['a malformed date', '?from=2026-02-30', 'from'],
    ['a malformed timestamp', '?to=yesterday', 'to'],
    ['limit 0', '?limit=0', 'limit'],
    ['limit 201', '?limit=201', 'limit'],
    ['page 0', '?page=0', 'page'],
    ['an unknown parameter', '?sort=asc', 'sort'],
  ])('refuses %s with 400', async (_, query, path) => {
    const res = await history(query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts limit 200', async () => {
    expect((await history('?limit=200')).body.meta.limit).toBe(200);
  });

  it("lists only that account's transactions, and a closed account stays readable", async () => {
    const other = await openAccount(app, user, 'Short-lived');
    await simulate(app, user, { accountId: other, amount: 50 });
    await simulate(app, user, { accountId: other, amount: -50 });
    const closed = await app.call('POST', `/v1/accounts/${other}/close`, {
      token: user.accessToken,
      body: { name: 'Short-lived', password: user.password },
    });
    expect(closed.status).toBe(200);
    const res = await app.call('GET', `/v1/accounts/${other}/transactions`, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { amount: number }) => t.amount)).toEqual([-50, 50]);
    expect((await history()).body.meta.total).toBe(6);
  });

  it("answers another user's account like a missing one, and an account without transactions with an empty page", async () => {
    const stranger = await app.createUser();
    const foreign = await history('', stranger.accessToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const empty = await openAccount(app, user, 'Empty');
    const res = await app.call('GET', `/v1/accounts/${empty}/transactions`, { token: user.accessToken });
    expect(res.body).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0, hasMore: false } });
  });

  it('counts a filtered page over the filter, not the whole account', async () => {
    const day = await history('?from=2026-03-02&to=2026-03-02&limit=1');
    expect(keys(day.body)).toEqual(['d2-end']);
    expect(day.body.meta).toEqual({ page: 1, limit: 1, total: 4, hasMore: true });
    expect((await history('?status=pending')).body.meta.total).toBe(0);
    expect((await history('?status=all&limit=2&page=3')).body.meta).toEqual({ page: 3, limit: 2, total: 6, hasMore: false });
  });

  it('answers 404 for an unknown account', async () => {
    const res = await app.call('GET', '/v1/accounts/0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d/transactions', {
      token: user.accessToken,
    });
    expect(res.status).toBe(404);
  });
});
