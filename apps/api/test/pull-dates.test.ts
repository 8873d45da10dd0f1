import { insertAccount, insertTransaction } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

const PARTNER_KEY = 'pull-dates-partner-key-0123456789-abcdefghijk';

let app: TestApp;
let key: string;
let ownerId: string;
let accountId: string;
beforeAll(async () => {
  app = await startTestApp({ PARTNER_API_KEYS: PARTNER_KEY });
  const user = await app.createUser();
  ownerId = user.id;
  key = (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Dates' } })).body.data.key;
  accountId = await insertAccount(app.db, user.id);
});
afterAll(() => app.close());

const pull = (query: string) => app.call('GET', `/api/owner/${ownerId}/transactions${query}`, { token: key });
const dates = (res: { body: { data: { date: string }[] } }) => res.body.data.map((transaction) => transaction.date);
const DAY_MS = 86_400_000;
const startOfTodayUtc = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`).getTime();

describe('pull date bounds', () => {
  it('takes whole UTC days, inclusive: 23:59:59.999Z is in its day, the next 00:00:00.000Z is not', async () => {
    for (const date of [
      '2025-06-09T23:59:59.999Z',
      '2025-06-10T00:00:00.000Z',
      '2025-06-10T23:59:59.999Z',
      '2025-06-11T00:00:00.000Z',
    ]) {
      await insertTransaction(app.db, { moveBalance: false, accountId: accountId, date });
    }
    expect(dates(await pull('?from=2025-06-10&to=2025-06-10'))).toEqual(['2025-06-10T23:59:59.999Z', '2025-06-10T00:00:00.000Z']);
    expect(dates(await pull('?from=2025-06-11&to=2025-06-11'))).toEqual(['2025-06-11T00:00:00.000Z']);
    expect((await pull('?from=2025-06-09&to=2025-06-11')).body.meta.total).toBe(4);
  });

  it('defaults to the last 90 days: today and the 89 days before it', async () => {
    const today = startOfTodayUtc();
    const inside = [new Date(today + 1000), new Date(today - 89 * DAY_MS)].map((d) => d.toISOString());
    const outside = new Date(today - 89 * DAY_MS - 1).toISOString();
    for (const date of [...inside, outside]) await insertTransaction(app.db, { moveBalance: false, accountId: accountId, date });
    const res = await pull('');
    expect(res.status).toBe(200);
    expect(dates(res)).toEqual(inside);
  });

  it("ends the default window at today in the owner's world, whose clock may run ahead (user and partner keys)", async () => {
    const traveller = await app.createUser();
    const travellerKey = (await app.call('POST', '/v1/api-keys', { token: traveller.accessToken, body: { name: 'Ahead' } })).body
      .data.key;
    const travellerAccount = await insertAccount(app.db, traveller.id);
    const advanced = await app.call('POST', '/v1/clock/advance', { token: traveller.accessToken, body: { by: 'P200D' } });
    expect(advanced.status).toBe(200);
    const worldNow = Date.parse(advanced.body.data.now);
    const inWorld = new Date(worldNow - 10 * DAY_MS).toISOString(); // 10 days ago in the world
    const onlyByWallTime = new Date(Date.now() - 10 * DAY_MS).toISOString(); // 210 days ago in the world
    for (const date of [inWorld, onlyByWallTime]) {
      await insertTransaction(app.db, { moveBalance: false, accountId: travellerAccount, date });
    }
    for (const token of [travellerKey, PARTNER_KEY]) {
      const res = await app.call('GET', `/api/owner/${traveller.id}/transactions`, { token });
      expect(res.status).toBe(200);
      expect(dates(res)).toEqual([inWorld]);
      expect(res.body.meta.total).toBe(1);
    }
  });

  it('counts the default 90 days back from `to` when only `to` is given', async () => {
    await insertTransaction(app.db, { moveBalance: false, accountId: accountId, date: '2024-03-31T10:00:00.000Z' });
    await insertTransaction(app.db, { moveBalance: false, accountId: accountId, date: '2024-01-02T10:00:00.000Z' }); // 89 days before
    await insertTransaction(app.db, { moveBalance: false, accountId: accountId, date: '2024-01-01T10:00:00.000Z' }); // 90 days before
    expect(dates(await pull('?to=2024-03-31'))).toEqual(['2024-03-31T10:00:00.000Z', '2024-01-02T10:00:00.000Z']);
  });

  it('has no upper bound when only `from` is given', async () => {
    const res = await pull('?from=2025-06-11');
    expect(dates(res)[dates(res).length - 1]).toBe('2025-06-11T00:00:00.000Z');
    expect(res.body.meta.total).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['a timestamp', '?from=2025-06-10T00:00:00.000Z', 'from'],
    ['a day without padding', '?from=2025-6-1', 'from'],
    ['a day that does not exist', '?to=2025-02-30', 'to'],
    ['words', '?to=yesterday', 'to'],
    ['`from` after `to`', '?from=2025-06-11&to=2025-06-10', 'from'],
    ['an unknown parameter', '?since=2025-06-10', 'since'],
  ])('refuses %s with 400', async (_, query, path) => {
    const res = await pull(query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });
});

describe('pull pagination', () => {
  it('pages through the whole range without gaps or repeats', async () => {
    const all = await pull('?from=2020-01-01&to=2030-12-31&limit=200');
    const total = all.body.meta.total;
    expect(total).toBeGreaterThanOrEqual(7);
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 3); page++) {
      const res = await pull(`?from=2020-01-01&to=2030-12-31&page=${page}&limit=3`);
      expect(res.body.meta).toEqual({ page, limit: 3, total, hasMore: page * 3 < total });
      seen.push(...res.body.data.map((transaction: { id: string }) => transaction.id));
    }
    expect(seen).toEqual(all.body.data.map((transaction: { id: string }) => transaction.id));
    const beyond = await pull(`?from=2020-01-01&to=2030-12-31&page=${total + 1}&limit=1`);
    expect(beyond.body).toEqual({ data: [], meta: { page: total + 1, limit: 1, total, hasMore: false } });
  });

  it.each(['?page=0', '?limit=0', '?limit=201', '?page=x'])('refuses %s with 400', async (query) => {
    expect((await pull(query)).status).toBe(400);
  });
});
