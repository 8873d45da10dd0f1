/** The pull endpoint over data made only through the public API: register, accounts, simulations, close. */

import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function register(email: string): Promise<TestUser> {
  const password = 'password-123';
  const res = await app.call('POST', '/v1/auth/register', { body: { email, password } });
  expect(res.status).toBe(201);
  const { user, accessToken, refreshToken } = res.body.data;
  return { id: user.id, email: user.email, password, accessToken, refreshToken };
}

describe('pull over the real ledger', () => {
  it('reads every account (a closed one too) as the same Transaction objects as the account history', async () => {
    const user = await register('Ola.Nowak+Budget@example.com');
    const main = await openAccount(app, user, 'Main');
    const savings = await openAccount(app, user, 'Savings');
    const booked = [];
    for (const [accountId, amount, date] of [
      [main, 500_00, '2026-11-01T09:00:00.000Z'],
      [savings, 120_00, '2026-11-02T09:00:00.000Z'],
      [main, -42_50, '2026-11-03T09:00:00.000Z'],
      [savings, -120_00, '2026-11-04T09:00:00.000Z'],
    ] as const) {
      const res = await simulate(app, user, { accountId, amount, date, description: `Booked ${amount}` });
      expect(res.status).toBe(201);
      booked.push(res.body.data.transaction);
    }
    const closed = await app.call('POST', `/v1/accounts/${savings}/close`, {
      token: user.accessToken,
      body: { name: 'Savings', password: user.password },
    });
    expect(closed.status).toBe(200);
    const created = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Budget app' } });
    const key = created.body.data.key;

    const pulled = await app.call('GET', '/api/owner/ola.nowak%2Bbudget/transactions?from=2026-11-01&to=2026-11-04', {
      token: key,
    });
    expect(pulled.status).toBe(200);
    expect(pulled.body.data).toEqual([...booked].reverse());
    expect(pulled.body.meta).toEqual({ page: 1, limit: 50, total: 4, hasMore: false });

    for (const accountId of [main, savings]) {
      const history = await app.call('GET', `/v1/accounts/${accountId}/transactions?from=2026-11-01&to=2026-11-04`, {
        token: user.accessToken,
      });
      expect(history.status).toBe(200);
      const pulledHere = pulled.body.data.filter((transaction: { accountId: string }) => transaction.accountId === accountId);
      expect(pulledHere).toHaveLength(2);
      expect(history.body.data).toEqual(pulledHere);
    }
  });
});
