/**
 * The Plaid face on accounts in EUR, JPY and KWD, read with Plaid's official SDK (`plaid` 47):
 * `iso_currency_code` on balances and transactions is the account's, and amounts are decimals with
 * the currency's places (JPY none, KWD three), sign inverted for transactions, exact at the extremes.
 * Every response is checked against Plaid's published OpenAPI document.
 */
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { AppLedger, linkItem, plaidClientOf } from './plaid-calls.ts';
import { expectPlaidResponse } from './plaid-openapi.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function openIn(user: TestUser, name: string, currency: string): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name, currency } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function book(user: TestUser, accountId: string, amount: number, description: string) {
  const res = await simulate(app, user, { accountId, amount, description });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('Plaid face in other currencies, with the official SDK', () => {
  it('reads EUR, JPY and KWD accounts: their currency on every amount, their places, exact at 10^13 minor units', async () => {
    const user = await app.createUser();
    const eur = await openIn(user, 'Euro', 'EUR');
    const jpy = await openIn(user, 'Yen', 'JPY');
    const kwd = await openIn(user, 'Dinar', 'KWD');
    await book(user, eur, 1_234_56, 'EUR salary');
    await book(user, eur, -5, 'EUR fee');
    // 10^13 minor units on the balance: ten of the largest bookings (10^12 each).
    for (let i = 0; i < 10; i++) {
      await book(user, jpy, 10 ** 12, 'JPY in');
      await book(user, kwd, 10 ** 12, 'KWD in');
    }
    await book(user, jpy, -1, 'JPY one yen');
    await book(user, kwd, -1, 'KWD one fils');

    const client = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(client);
    const accounts = await client.accountsGet({ access_token: accessToken });
    expectPlaidResponse('/accounts/get', accounts.data);
    const balances = new Map(accounts.data.accounts.map((account) => [account.account_id, account.balances]));
    expect(balances.get(eur)).toMatchObject({ current: 1234.51, available: 1234.51, iso_currency_code: 'EUR' });
    expect(balances.get(jpy)).toMatchObject({
      current: 9_999_999_999_999,
      available: 9_999_999_999_999,
      iso_currency_code: 'JPY',
    });
    expect(balances.get(kwd)).toMatchObject({
      current: 9_999_999_999.999,
      available: 9_999_999_999.999,
      iso_currency_code: 'KWD',
    });

    const ledger = new AppLedger(client, accessToken);
    await ledger.syncUntil(() => ledger.transactions.size === 24);
    const seen = new Set([...ledger.transactions.values()].map((t) => JSON.stringify([t.name, t.amount, t.iso_currency_code])));
    expect([...seen].sort()).toEqual(
      [
        ['EUR fee', 0.05, 'EUR'],
        ['EUR salary', -1234.56, 'EUR'],
        ['JPY in', -1_000_000_000_000, 'JPY'],
        ['JPY one yen', 1, 'JPY'],
        ['KWD in', -1_000_000_000, 'KWD'],
        ['KWD one fils', 0.001, 'KWD'],
      ]
        .map((row) => JSON.stringify(row))
        .sort(),
    );
  });
});
