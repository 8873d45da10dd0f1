/**
 * A standing order's own-account payee is one account id, however the request spelled it: a UUID in
 * capitals names the same account (PostgreSQL compares uuids, not text), so it is stored as the
 * account's id. Otherwise the schedule's own account passes as "another" one, and a fork — which finds
 * the copy of the payee by its id as text — keeps pointing at the parent world's account.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { worldCalls } from './world-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const YEAR = new Date().getUTCFullYear() + 1;
const { advance, schedule } = worldCalls(() => app);
const body = { amount: -100_00, description: 'Move', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', startAt: `${YEAR}-02-01T09:00:00Z` };

describe('a standing order to an own account named in capitals', () => {
  it('is refused when it names the schedule’s own account', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Main');
    const res = await schedule(user, main, { ...body, payment: { to: { accountId: main.toUpperCase() } } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'payment.to.accountId' }] });
  });

  it('is stored as the account’s id, and a fork pays the copy of it, not the parent’s account', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Main');
    const savings = await openAccount(app, user, 'Savings');
    expect((await simulate(app, user, { accountId: main, amount: 1_000_00 })).status).toBe(201);
    const made = await schedule(user, main, { ...body, payment: { to: { accountId: savings.toUpperCase() } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.payment).toEqual({ to: { accountId: savings }, scheme: null });

    const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'caps' } });
    expect(snap.status, JSON.stringify(snap.body)).toBe(201);
    const forked = await app.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId: snap.body.data.id } });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const child = { accessToken: forked.body.data.accessToken as string } as TestUser;
    const accounts = (await app.call('GET', '/v1/accounts', { token: child.accessToken })).body.data as {
      id: string;
      name: string;
      balance: number;
    }[];
    const childMain = accounts.find((account) => account.name === 'Main')?.id as string;
    const childSavings = accounts.find((account) => account.name === 'Savings')?.id as string;
    const listed = await app.call('GET', `/v1/accounts/${childMain}/schedules`, { token: child.accessToken });
    expect(listed.body.data).toMatchObject([{ payment: { to: { accountId: childSavings } } }]);
    expect((await advance(child, { to: `${YEAR}-02-20T12:00:00Z` })).status).toBe(200);
    const after = (await app.call('GET', `/v1/accounts/${childSavings}`, { token: child.accessToken })).body.data;
    expect(after.balance).toBe(100_00);
  });
});
