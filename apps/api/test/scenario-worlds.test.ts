/**
 * Scenarios (docs/concepts/scenarios.md) as worlds: an exported world applies again to a new user as the same world
 * (back-dated debits, pending ones, reversals, paused schedules), and schedules inside a scenario
 * (their two-year bound, their past runs counted toward the 50,000 and booked after the commit).
 */
import { openAccount, type SimulationBody, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { apply, comparable, exported, scheduledScenario } from './scenario-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('an exported world applies again', () => {
  const DAY = 86_400_000;
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

  it('with back-dated debits, pending ones, a tip, a void and a reversal: export → apply → export is the same', async () => {
    const source = await app.createUser();
    const main = await openAccount(app, source, 'Główne');
    const savings = await openAccount(app, source, 'Oszczędności');
    const book = async (body: Record<string, unknown>) => {
      const res = await simulate(app, source, body as SimulationBody);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.transaction.id as string;
    };
    const act = async (id: string, verb: string, body: Record<string, unknown> = {}) => {
      const res = await app.call('POST', `/v1/transactions/${id}/${verb}`, { token: source.accessToken, body });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    };
    await book({ accountId: main, amount: 10_000, description: 'Wpłata' });
    // Accepted by the ledger: the 10,000 was there when it was booked, dated yesterday.
    const backDated = await book({ accountId: main, amount: -5_000, description: 'Zakupy', date: daysAgo(1) });
    const refunded = await book({ accountId: main, amount: 4_000, description: 'Zwrot', date: daysAgo(3) });
    await act(refunded, 'reverse', { amount: 1_000 });
    await book({ accountId: main, amount: -2_000, description: 'Orlen', status: 'pending', settleAfter: 'P3D' });
    await act(await book({ accountId: main, amount: -1_000, description: 'Pizza', status: 'pending' }), 'post', {
      amount: -1_200,
    });
    await act(await book({ accountId: main, amount: -300, description: 'Kino', status: 'pending' }), 'void');
    await book({ accountId: main, amount: 700, description: 'BLIK', status: 'pending', expireAfter: 'P5D' });
    const patched = await app.call('PATCH', `/v1/transactions/${backDated}`, {
      token: source.accessToken,
      body: { merchant: 'Biedronka', category: 'groceries' },
    });
    expect(patched.status).toBe(200);
    await book({ accountId: savings, amount: 500, description: 'Przelew' });
    await book({ accountId: savings, amount: -500, description: 'Wypłata', date: daysAgo(2) });

    const first = await exported(app, source);
    const copy = await app.createUser();
    const res = await apply(app, copy, { scenario: first });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(comparable(await exported(app, copy))).toEqual(comparable(first));

    const balances = async (user: TestUser) =>
      (await app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts', { token: user.accessToken })).body.data.map(
        (account) => ({
          name: account.name,
          balance: account.balance,
          heldAmount: account.heldAmount,
          availableBalance: account.availableBalance,
        }),
      );
    expect(await balances(copy)).toEqual(await balances(source));
    expect((await balances(source))[0]).toEqual({ name: 'Główne', balance: 6_800, heldAmount: 2_000, availableBalance: 4_800 });
    // The same world, new transactions: no id is shared.
    const ids = async (user: TestUser): Promise<string[]> =>
      (await app.db.query('select id from transactions where user_id = $1', [user.id])).rows.map((row) => row.id);
    const [sourceIds, copyIds] = [await ids(source), await ids(copy)];
    expect(copyIds).toHaveLength(9);
    expect(copyIds.filter((id) => sourceIds.includes(id))).toEqual([]);
  });

  it('with a schedule paused for more than two years of its world', async () => {
    const source = await app.createUser();
    const accountId = await openAccount(app, source, 'Paused');
    const created = await app.call('POST', `/v1/accounts/${accountId}/schedules`, {
      token: source.accessToken,
      body: { amount: 1_00, description: 'Monthly', rrule: 'FREQ=MONTHLY', timezone: 'UTC', startAt: daysAgo(-1) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const paused = await app.call('POST', `/v1/schedules/${created.body.data.id}/pause`, { token: source.accessToken, body: {} });
    expect(paused.status).toBe(200);
    for (const by of ['P2Y', 'P1M']) {
      expect((await app.call('POST', '/v1/clock/advance', { token: source.accessToken, body: { by } })).status).toBe(200);
    }
    const first = await exported(app, source);
    const copy = await app.createUser();
    const res = await apply(app, copy, { scenario: first });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.scheduleRuns).toEqual({ booked: 0, failed: 0 });
    const [account] = (await app.call('GET', '/v1/accounts', { token: copy.accessToken })).body.data;
    const listed = await app.call('GET', `/v1/accounts/${account.id}/schedules`, { token: copy.accessToken });
    expect(listed.body.data).toMatchObject([{ description: 'Monthly', state: 'paused', runs: 0 }]);
  });

  it('but not a paused schedule whose walk from its start would be too long (resuming walks it)', async () => {
    const user = await app.createUser();
    const scenario = scheduledScenario([
      {
        amount: 100,
        description: 't',
        rrule: 'FREQ=DAILY;BYHOUR=0,6,12,18',
        timezone: 'UTC',
        startAt: '1990-01-01T00:00:00Z',
        paused: true,
      },
    ]);
    const res = await apply(app, user, { scenario });
    expect([res.status, res.body.details?.[0]?.path], JSON.stringify(res.body)).toEqual([
      400,
      'scenario.accounts.0.schedules.0.startAt',
    ]);
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
  });

  it('still refuses a document whose balances the ledger would refuse, naming the account', async () => {
    const user = await app.createUser();
    const scenario = {
      version: 1,
      seed: 1,
      accounts: [
        { key: 'a', name: 'A', transactions: [{ at: '-P2D', amount: 1_000, description: 'in' }] },
        {
          key: 'b',
          name: 'B',
          transactions: [
            { at: '-P2D', amount: 1_000, description: 'in' },
            { at: '-P1D', amount: -600, description: 'card', status: 'pending' },
            { at: '-PT1H', amount: -600, description: 'card' },
          ],
        },
      ],
    };
    const res = await apply(app, user, { scenario });
    expectRefusal(res, [422, 'INSUFFICIENT_FUNDS', 'scenario.accounts.1.transactions']);
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
  });
});

describe('schedules in a scenario', () => {
  const worldOf = async (user: TestUser) => ({
    accounts: (await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data,
    events: (await app.call('GET', '/v1/events', { token: user.accessToken })).body.data,
  });

  it('refuses a startAt more than two years back, as POST …/schedules does, and writes nothing', async () => {
    const user = await app.createUser();
    for (const startAt of ['2019-01-01T00:00:00Z', '-P2Y1D']) {
      const scenario = scheduledScenario([{ amount: 100, description: 't', rrule: 'FREQ=DAILY', startAt }]);
      const res = await apply(app, user, { scenario });
      expectRefusal(res, [400, 'VALIDATION_ERROR', 'scenario.accounts.0.schedules.0.startAt']);
    }
    expect(await worldOf(user)).toEqual({ accounts: [], events: [] });
  });

  it('counts the past occurrences of schedules toward the 50,000 of one apply, before writing anything', async () => {
    const user = await app.createUser();
    // 49,990 in the document and 31 daily runs since -P30D: 50,021 transactions in all.
    const transactions = Array.from({ length: 49_990 }, () => ({ at: '-P1D', amount: 1, description: '' }));
    const schedules = [{ amount: 100, description: 't', rrule: 'FREQ=DAILY', timezone: 'UTC', startAt: '-P30D' }];
    const scenario = { version: 1, seed: 1, accounts: [{ key: 'a', name: 'S', transactions, schedules }] };
    const res = await apply(app, user, { scenario });
    expectRefusal(res, [422, 'SCENARIO_TOO_LARGE', 'scenario.accounts.0.schedules.0']);
    expect(await worldOf(user)).toEqual({ accounts: [], events: [] });
    const { rows } = await app.db.query('select count(*)::int as n from transactions where user_id = $1', [user.id]);
    expect(rows[0].n).toBe(0);
  });

  it('reports the backfilled runs in the response: booked and failed', async () => {
    const user = await app.createUser();
    const scenario = scheduledScenario([
      // 11 daily credits (-10 days … today) and 3 weekly debits (-20, -13, -6 days) that find no funds.
      { amount: 500, description: 'Kieszonkowe', rrule: 'FREQ=DAILY', timezone: 'UTC', startAt: '-P10D' },
      { amount: -100_000, description: 'Czynsz', rrule: 'FREQ=WEEKLY', timezone: 'UTC', startAt: '-P20D' },
    ]);
    const res = await apply(app, user, { scenario });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ transactions: 0, schedules: 2, scheduleRuns: { booked: 11, failed: 3 } });
    const accountId = res.body.data.accounts[0].id;
    const history = await app.call<Output['transactions']['listAccountTransactions']>(
      'GET',
      `/v1/accounts/${accountId}/transactions?limit=200`,
      { token: user.accessToken },
    );
    expect(history.body.data.map((txn) => txn.amount)).toEqual(Array.from({ length: 11 }, () => 500));
    expect((await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken })).body.data.balance).toBe(5_500);
  });
});

describe("a scenario's asOf", () => {
  const clockOf = async (user: TestUser) =>
    new Date((await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.now).getTime();
  const DAY = 86_400_000;

  it('moves a world with something due at most two years, as an advance does, and past that writes nothing', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const schedule = { amount: 100, description: 'Daily', rrule: 'FREQ=DAILY', timezone: 'UTC' };
    const created = await app.call('POST', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken, body: schedule });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const before = await clockOf(user);
    for (const asOf of ['9999-01-01T00:00:00Z', new Date(before + 800 * DAY).toISOString()]) {
      const res = await apply(app, user, { scenario: { version: 1, seed: 1, asOf, accounts: [{ key: 'a', name: 'A' }] } });
      expectRefusal(res, [422, 'ADVANCE_TOO_LARGE', 'scenario.asOf']);
    }
    const accounts = (await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data;
    expect(accounts.map((account: { id: string }) => account.id)).toEqual([accountId]);
    expect((await clockOf(user)) - before).toBeLessThan(60_000);
    // With nothing that could come due (here after the reset it asks for), any distance.
    const asOf = new Date(before + 800 * DAY).toISOString();
    const reset = await apply(app, user, { scenario: { version: 1, seed: 1, asOf, accounts: [] }, reset: true });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await clockOf(user)).toBeGreaterThanOrEqual(new Date(asOf).getTime());
  });

  it('is not bounded by what comes due only after it', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 1_00, status: 'pending', expireAfter: 'P10Y' });
    const asOf = new Date((await clockOf(user)) + 3 * 366 * DAY).toISOString();
    const res = await apply(app, user, { scenario: { version: 1, seed: 1, asOf, accounts: [] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await clockOf(user)).toBeGreaterThanOrEqual(new Date(asOf).getTime());
  });

  it('fires what the world already had due on the way before it answers, as an advance would', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 10_000 });
    const pending = await simulate(app, user, { accountId, amount: -2_500, status: 'pending', settleAfter: 'P3D' });
    const id = pending.body.data.transaction.id;
    const asOf = new Date((await clockOf(user)) + 10 * DAY).toISOString();
    const res = await apply(app, user, { scenario: { version: 1, seed: 1, asOf, accounts: [] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await clockOf(user)).toBeGreaterThanOrEqual(new Date(asOf).getTime());
    const history = await app.call('GET', `/v1/accounts/${accountId}/transactions?status=all`, { token: user.accessToken });
    const settled = history.body.data.find((txn: { id: string }) => txn.id === id);
    expect(settled).toMatchObject({ status: 'posted', amount: -2_500 });
    // Settled at its own due time, three days into the jump, not at the scenario's now.
    expect(new Date(settled.postedAt).getTime()).toBeLessThan(new Date(asOf).getTime() - 6 * DAY);
  });
});
