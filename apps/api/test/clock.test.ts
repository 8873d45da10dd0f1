/**
 * Each user's world has a clock (docs/concepts/clock-and-schedules.md), over real HTTP on a real PostgreSQL: advance by and to,
 * due items at their own due times, the errors, concurrent advances, items that fall due as wall
 * time passes, and a reset. Schedules are in schedules.test.ts.
 */

import { fireDueItemsEverywhere } from '@sandbank/core';
import { waitUntil } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, visibleEvents } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';
import { worldCalls } from './world-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
/** A year wholly in the future of every clock here, so absolute dates stay valid whenever the suite runs. */
const YEAR = new Date().getUTCFullYear() + 1;

const { clock, advance, schedule, runs, history } = worldCalls(() => app);

describe('the clock', () => {
  it('starts at wall time, moves forward by a duration or to an instant, and dates what happens in the world', async () => {
    const user = await app.createUser();
    const start = await clock(user);
    expect(start.offsetMs).toBe(0);
    expect(Math.abs(new Date(start.now).getTime() - Date.now())).toBeLessThan(5_000);

    const byMonth = await advance(user, { by: 'P1M' });
    expect(byMonth.status, JSON.stringify(byMonth.body)).toBe(200);
    expect(byMonth.body.data).toMatchObject({ fired: { scheduled: 0, settled: 0, expired: 0 }, events: 0 });
    const from = new Date(byMonth.body.data.from);
    // A month later is the same day of the next month, or its last day when it is shorter (31 October + P1M
    // is 30 November; Date's setUTCMonth would roll over to 1 December).
    const expected = new Date(from);
    expected.setUTCDate(1);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    const lastDay = new Date(Date.UTC(expected.getUTCFullYear(), expected.getUTCMonth() + 1, 0)).getUTCDate();
    expected.setUTCDate(Math.min(from.getUTCDate(), lastDay));
    expect(new Date(byMonth.body.data.now).getTime() - expected.getTime()).toBeGreaterThanOrEqual(0);
    expect(new Date(byMonth.body.data.now).getTime() - expected.getTime()).toBeLessThan(5_000);
    const after = await clock(user);
    expect(after.offsetMs).toBeGreaterThan(27 * DAY);

    // A simulation without a date is dated on the world's clock, and so is its event.
    const accountId = await openAccount(app, user);
    const booked = await simulate(app, user, { accountId, amount: 10_00 });
    expect(booked.status).toBe(201);
    const date = new Date(booked.body.data.transaction.date).getTime();
    expect(Math.abs(date - new Date(after.now).getTime())).toBeLessThan(5_000);
    const [event] = await visibleEvents(app, user, 1, '');
    expect(Math.abs(new Date(event?.createdAt ?? 0).getTime() - date)).toBeLessThan(5_000);
    expect(event?.data.transaction?.date).toBe(booked.body.data.transaction.date);
    // "Not in the future" is the world's future: a week after wall time is the past now.
    const lastWeek = new Date(Date.now() + 7 * DAY).toISOString();
    expect((await simulate(app, user, { accountId, amount: 1_00, date: lastWeek })).status).toBe(201);
    const tooLate = new Date(new Date(after.now).getTime() + DAY).toISOString();
    const refused = await simulate(app, user, { accountId, amount: 1_00, date: tooLate });
    expect([refused.status, refused.body.details?.[0]?.path]).toEqual([400, 'date']);

    const to = `${YEAR + 1}-01-01T00:00:00.000Z`;
    const toInstant = await advance(user, { to });
    expect(toInstant.status).toBe(200);
    expect(new Date(toInstant.body.data.now).getTime() - new Date(to).getTime()).toBeLessThan(5_000);
  });

  it('dates accounts, API keys and webhooks on the world clock; a key expires on it', async () => {
    const user = await app.createUser();
    await advance(user, { by: 'P1Y' });
    const { now } = await clock(user);
    const nearNow = (instant: string | null | undefined) =>
      expect(Math.abs(new Date(instant ?? 0).getTime() - new Date(now).getTime())).toBeLessThan(5_000);

    const accountId = await openAccount(app, user, 'Dated');
    const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    nearNow(account.body.data.createdAt);
    const closed = await app.call('POST', `/v1/accounts/${accountId}/close`, {
      token: user.accessToken,
      body: { name: 'Dated', password: user.password },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    nearNow(closed.body.data.closedAt);

    const webhook = await app.call('POST', '/v1/webhooks', {
      token: user.accessToken,
      body: {
        url: 'http://127.0.0.1:9/hook',
        clientId: 'budget-app',
        secret: 'a-webhook-secret-of-32-characters!',
        events: ['transaction.created'],
      },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    nearNow(webhook.body.data.createdAt);

    // A key that expires tomorrow in the world (a year after wall time): valid now, expired after two days.
    const tomorrow = new Date(new Date(now).getTime() + DAY).toISOString();
    const created = await app.call('POST', '/v1/api-keys', {
      token: user.accessToken,
      body: { name: 'dated', expiresAt: tomorrow },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    nearNow(created.body.data.createdAt);
    const pull = () =>
      fetch(`${app.url}/api/owner/${user.id}/transactions`, { headers: { authorization: `Bearer ${created.body.data.key}` } });
    expect((await pull()).status).toBe(200);
    const [listed] = (await app.call('GET', '/v1/api-keys', { token: user.accessToken })).body.data;
    nearNow(listed.lastUsedAt);
    await advance(user, { by: 'P2D' });
    const expired = await pull();
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { message: string }).message).toBe('The API key has expired');
    // An expiry in the world's past is refused, though it is a year after wall time.
    const past = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'late', expiresAt: tomorrow } });
    expect([past.status, past.body.details?.[0]?.path]).toEqual([400, 'expiresAt']);

    // A reset sets the clock back to wall time; what the world keeps keeps its age: the key stays
    // expired, was last used two days ago, and the webhook was made two days ago.
    const reset = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
    expect(reset.status).toBe(200);
    expect((await pull()).status).toBe(401);
    const ago = (instant: string | null | undefined) => Date.now() - new Date(instant ?? 0).getTime();
    const kept = (await app.call('GET', '/v1/api-keys', { token: user.accessToken })).body.data;
    const dated = kept.find((key: { id: string }) => key.id === created.body.data.id);
    expect(ago(dated.lastUsedAt)).toBeGreaterThan(2 * DAY - 60_000);
    expect(ago(dated.lastUsedAt)).toBeLessThan(2 * DAY + 60_000);
    const [hook] = (await app.call('GET', '/v1/webhooks', { token: user.accessToken })).body.data;
    expect(ago(hook.createdAt)).toBeGreaterThan(2 * DAY - 60_000);
    expect(ago(hook.createdAt)).toBeLessThan(2 * DAY + 60_000);
  });

  it('refuses bad advances with a clear error and changes nothing', async () => {
    const user = await app.createUser();
    const before = await clock(user);
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ to: '2000-01-01T00:00:00Z' }, 409, 'CLOCK_BACKWARD', 'to'],
      [{ by: 'P2Y1D' }, 422, 'ADVANCE_TOO_LARGE', 'by'],
      // Too long for the calendar (adding it gives no valid date): still just too large.
      [{ by: 'P300000Y' }, 422, 'ADVANCE_TOO_LARGE', 'by'],
      [{ by: 'PT9999999999999999999S' }, 422, 'ADVANCE_TOO_LARGE', 'by'],
      [{ by: 'P1M-29D' }, 400, 'VALIDATION_ERROR', 'by'],
      [{ by: 'PT0S' }, 400, 'VALIDATION_ERROR', 'by'],
      [{ to: `${YEAR + 3}-01-01T00:00:00Z` }, 422, 'ADVANCE_TOO_LARGE', 'to'],
      [{ by: 'P1M', to: `${YEAR}-01-01T00:00:00Z` }, 400, 'VALIDATION_ERROR', 'by'],
      [{}, 400, 'VALIDATION_ERROR', 'by'],
      [{ by: 'one month' }, 400, 'VALIDATION_ERROR', 'by'],
      [{ by: '-P1D' }, 400, 'VALIDATION_ERROR', 'by'],
      [{ to: 'tomorrow' }, 400, 'VALIDATION_ERROR', 'to'],
    ];
    for (const [body, status, code, path] of cases) {
      const res = await advance(user, body);
      expectRefusal(res, [status, code, path], JSON.stringify(body));
    }
    expect((await clock(user)).offsetMs).toBe(before.offsetMs);
  });

  it('settles and expires pending transactions at their own due times as it passes them', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 100_00 });
    const settles = await simulate(app, user, { accountId, amount: -10_00, status: 'pending', settleAfter: 'P2D' });
    const expires = await simulate(app, user, { accountId, amount: -20_00, status: 'pending', expireAfter: 'P5D' });
    const later = await simulate(app, user, { accountId, amount: -30_00, status: 'pending', settleAfter: 'P10D' });
    const res = await advance(user, { by: 'P7D' });
    expect(res.body.data).toMatchObject({ fired: { scheduled: 0, settled: 1, expired: 1 }, events: 2 });
    const rows = await history(user, accountId);
    const find = (id: string) => rows.find((row) => row.externalTxnId === id);
    const settled = find(settles.body.data.transaction.externalTxnId);
    expect(settled?.status).toBe('posted');
    expect(new Date(settled?.postedAt ?? 0).getTime()).toBe(new Date(settles.body.data.transaction.date).getTime() + 2 * DAY);
    expect(find(expires.body.data.transaction.externalTxnId)?.status).toBe('voided');
    expect(find(later.body.data.transaction.externalTxnId)?.status).toBe('pending');
    // 4 created, 1 updated (settled), 1 removed (expired).
    const events = await visibleEvents(app, user, 6, '?limit=50');
    const removed = events.find((event) => event.type === 'transaction.removed');
    expect(removed?.data.reason).toBe('expired');
    expect(new Date(removed?.createdAt ?? 0).getTime()).toBe(new Date(expires.body.data.transaction.date).getTime() + 5 * DAY);
    expectConsistent(await ledgerOf(app, accountId));
  });
});
describe('concurrency and due items on wall time', () => {
  it('two concurrent advances of one world never double a run', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const created = await schedule(user, accountId, { amount: 1_00, description: 'Daily', rrule: 'FREQ=DAILY', timezone: 'UTC' });
    const [a, b] = await Promise.all([advance(user, { by: 'P1M' }), advance(user, { by: 'P1M' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // The first run (at the start, now) fired when the schedule was created.
    const fired = a.body.data.fired.scheduled + b.body.data.fired.scheduled;
    expect(fired + created.body.data.runs).toBe((await runs(user, created.body.data.id)).length);
    const rows = await history(user, accountId);
    expect(new Set(rows.map((row) => row.externalTxnId)).size).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(58);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('fires what falls due as wall time passes, each world up to its own now', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 50_00 });
    const pending = await simulate(app, user, { accountId, amount: -10_00, status: 'pending', settleAfter: 'PT1H' });
    // Two hours of wall time pass: move the due time back instead of waiting. Wall time is the
    // worlds' (sandbank_wall_now()), not the database server's now(), which `pnpm test:instants` does not shift.
    await app.db.query(`update transactions set settle_at = sandbank_wall_now() - interval '1 hour' where id = $1`, [
      pending.body.data.transaction.id,
    ]);
    const fired = await fireDueItemsEverywhere(app.orm.em.fork(), { worlds: 1000 });
    expect(fired.settled).toBeGreaterThanOrEqual(1);
    const row = (await history(user, accountId)).find((txn) => txn.externalTxnId === pending.body.data.transaction.externalTxnId);
    expect(row?.status).toBe('posted');
  });
});

describe('reset', () => {
  it('empties the world, keeps credentials, API keys and webhooks, sets the clock back and expires sync cursors', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 10_00 });
    await schedule(user, accountId, { amount: 1_00, description: 'Daily', rrule: 'FREQ=DAILY', timezone: 'UTC' });
    await advance(user, { by: 'P3D' });
    const key = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'kept' } });
    const sync = await app.call('GET', '/v1/transactions/sync', { token: user.accessToken });
    const cursor = sync.body.data.nextCursor;

    const wrong = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'yes' } });
    expect([wrong.status, wrong.body.details?.[0]?.path]).toEqual([400, 'confirm']);
    const res = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.removed).toMatchObject({ accounts: 1, schedules: 1 });
    expect(res.body.data.removed.transactions).toBeGreaterThanOrEqual(4);
    expect(res.body.data.removed.events).toBe(res.body.data.removed.transactions);
    expect((await clock(user)).offsetMs).toBe(0);
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
    const keys = (await app.call<Output['integrations']['listApiKeys']>('GET', '/v1/api-keys', { token: user.accessToken })).body
      .data;
    expect(keys.map((listed) => listed.id)).toContain(key.body.data.id);
    const expired = await app.call('GET', `/v1/transactions/sync?cursor=${cursor}`, { token: user.accessToken });
    expect([expired.status, expired.body.code]).toEqual([410, 'CURSOR_EXPIRED']);
  });

  it('leaves no event behind for a booking that commits while the reset runs', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    // Hold the account's row, as a booking in flight does; a simulation then queues behind it.
    const holder = await app.db.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from accounts where id = $1 for update', [accountId]);
      const booking = simulate(app, user, { accountId, amount: 10_00 });
      await lockWaiters(1);
      const reset = app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
      await lockWaiters(2); // the reset waits too, at the accounts
      await holder.query('rollback');
      expect((await booking).status).toBe(201); // first in the queue: it commits, with its event
      const res = await reset;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.removed).toMatchObject({ accounts: 1, transactions: 1, events: 1 });
    } finally {
      holder.release();
    }
    const { rows } = await app.db.query<{ n: number }>('select count(*)::int as n from events where user_id = $1', [user.id]);
    expect(rows[0]?.n).toBe(0);
  });

  it('does not deadlock with a transition in flight (it locks its transaction, then its account)', async () => {
    const { user, accountId, pending } = await withPendingDebit();
    const transition = await app.db.connect();
    try {
      await transition.query('begin');
      await transition.query('select 1 from transactions where id = $1 for update', [pending.id]);
      const reset = app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
      await lockWaiters(1); // the reset waits for the transaction's row
      // The transition's second lock: the account must still be free (a reset that locked the
      // accounts first deadlocked here, and PostgreSQL aborted one of the two after a second).
      await transition.query('select 1 from accounts where id = $1 for no key update', [accountId]);
      await transition.query('commit');
      const res = await reset;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.removed).toMatchObject({ accounts: 1, transactions: 2 });
    } finally {
      transition.release();
    }
  });
});

describe('a transition that loses a deadlock', () => {
  it('runs again instead of answering 500 (a reset locks accounts, then transactions)', async () => {
    const { user, accountId, pending } = await withPendingDebit();
    // As the reset does after a booking slipped in: it holds the account and comes for the transaction.
    const reset = await app.db.connect();
    try {
      await reset.query('begin');
      await reset.query('select 1 from accounts where id = $1 for no key update', [accountId]);
      const voided = app.call('POST', `/v1/transactions/${pending.id}/void`, { token: user.accessToken, body: {} });
      await lockWaiters(1); // the void holds the transaction and waits for the account
      // The cycle: PostgreSQL aborts the void, which waited first (deadlock_timeout, 1 s).
      await reset.query('select 1 from transactions where id = $1 for update', [pending.id]);
      await reset.query('rollback');
      const res = await voided;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.transaction.status).toBe('voided');
    } finally {
      reset.release();
    }
  });
});

describe('reset and creations', () => {
  it('an account being opened when the reset starts is removed with the rest, not left behind', async () => {
    const user = await app.createUser();
    await openAccount(app, user, 'Old');
    // An account's creation in flight: it holds the user's row (its limit check) and has inserted.
    const creation = await app.db.connect();
    try {
      await creation.query('begin');
      await creation.query('select 1 from users where id = $1 for no key update', [user.id]);
      await creation.query(`insert into accounts (id, user_id, name, status) values (gen_random_uuid(), $1, 'New', 'open')`, [
        user.id,
      ]);
      const reset = app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
      await lockWaiters(1); // the reset waits for the creation
      await creation.query('commit');
      const res = await reset;
      expect(res.status).toBe(200);
      expect(res.body.data.removed.accounts).toBe(2);
    } finally {
      creation.release();
    }
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
  });
});

/** A user whose account holds 50.00 and a pending debit of 10.00. */
async function withPendingDebit() {
  const user = await app.createUser();
  const accountId = await openAccount(app, user);
  await simulate(app, user, { accountId, amount: 50_00 });
  const pending = (await simulate(app, user, { accountId, amount: -10_00, status: 'pending' })).body.data.transaction;
  return { user, accountId, pending };
}

/** Until `count` sessions of this test file's database wait for a lock. */
async function lockWaiters(count: number): Promise<void> {
  await waitUntil(
    async () => {
      const { rows } = await app.db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
      );
      return (rows[0]?.n ?? 0) >= count;
    },
    { intervalMs: 10, what: `${count} sessions waiting for a lock` },
  );
}
