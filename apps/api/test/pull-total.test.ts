/**
 * The pull endpoint's `total` for the default view comes from the accounts' counters minus the rows
 * outside the window (issue 11: no count over the whole window on every page). It must equal a
 * plain count for every window: before, after and across the rows, with pending and voided ones,
 * over several accounts.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const day = (days: number) => daysAgo(days).slice(0, 10);

it('equals a plain count of pending and posted rows for every window', async () => {
  const owner = await app.createUser();
  const accounts = [await openAccount(app, owner), await openAccount(app, owner)];
  for (const accountId of accounts) {
    expect((await simulate(app, owner, { accountId, amount: 1_000_00, date: daysAgo(200) })).status).toBe(201);
    for (const days of [150, 100, 89, 60, 30, 10, 1])
      await simulate(app, owner, { accountId, amount: -1_00, date: daysAgo(days) });
    await simulate(app, owner, { accountId, amount: -5_00, status: 'pending', date: daysAgo(5) });
    // Exactly on the edges of windows below: midnight opens a day (in) and closes the day before (out).
    for (const edge of [day(19), day(2)]) await simulate(app, owner, { accountId, amount: -2_00, date: `${edge}T00:00:00.000Z` });
    const voided = await simulate(app, owner, { accountId, amount: -7_00, status: 'pending', date: daysAgo(3) });
    await app.call('POST', `/v1/transactions/${voided.body.data.transaction.id}/void`, { token: owner.accessToken, body: {} });
  }
  const key = (await app.call('POST', '/v1/api-keys', { token: owner.accessToken, body: { name: 'pull' } })).body.data.key;
  const windows: [string, string | undefined, string | undefined][] = [
    ['default (90 days)', undefined, undefined],
    ['old, bounded', day(160), day(50)],
    ['up to 20 days ago', undefined, day(20)],
    ['the last 2 days', day(2), undefined],
    ['everything', day(400), day(0)],
    ['nothing', day(400), day(300)],
  ];
  for (const [name, from, to] of windows) {
    const query = new URLSearchParams({ limit: '2', ...(from ? { from } : {}), ...(to ? { to } : {}) });
    const res = await app.call('GET', `/api/owner/${owner.id}/transactions?${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status, name).toBe(200);
    // Without `from`, the window is the 90 days ending at `to` (or today).
    const last = to ? Date.parse(`${to}T00:00:00Z`) : Date.parse(`${day(0)}T00:00:00Z`);
    const lower = from ?? new Date(last - 89 * DAY).toISOString().slice(0, 10);
    const { rows } = await app.db.query(
      `select count(*)::int as n from transactions
        where user_id = $1 and status <> 'voided' and date >= $2::date and ($3::date is null or date < $3::date + 1)`,
      [owner.id, lower, to ?? null],
    );
    expect(res.body.meta.total, name).toBe(rows[0].n);
    expect(res.body.meta.hasMore, name).toBe(rows[0].n > 2);
  }
});
