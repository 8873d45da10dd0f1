/**
 * The GoCardless face on accounts in EUR, JPY and KWD, read with GoCardless's official client
 * `nordigen-node` 1.4.1: `currency` on the details, the balances and every amount is the account's,
 * and amount strings have the currency's places (JPY none, KWD three), exact at 10^13 minor units.
 */
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { client } = gocardlessCalls(() => app);

async function openIn(user: TestUser, name: string, currency: string): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name, currency } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function book(user: TestUser, accountId: string, amount: number, description: string) {
  const res = await simulate(app, user, { accountId, amount, description });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

type Money = { amount: string; currency: string };

describe('GoCardless face in other currencies, with nordigen-node', () => {
  it('reads EUR, JPY and KWD accounts with their currency and places', async () => {
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

    const nordigen = await client(user);
    const session = await nordigen.initSession({
      redirectUrl: 'https://budget.example/callback',
      institutionId: SANDBOX,
      referenceId: 'currencies',
      maxHistoricalDays: 90,
      accessValidForDays: 30,
    });
    const requisition = await nordigen.requisition.getRequisitionById(session.id);
    expect(requisition.accounts).toHaveLength(3);
    const expected: Record<string, { currency: string; balance: string; amounts: string[] }> = {
      Euro: { currency: 'EUR', balance: '1234.51', amounts: ['-0.05', '1234.56'] },
      Yen: { currency: 'JPY', balance: '9999999999999', amounts: ['-1', '1000000000000'] },
      Dinar: { currency: 'KWD', balance: '9999999999.999', amounts: ['-0.001', '1000000000.000'] },
    };
    const seen = new Set<string>();
    for (const id of requisition.accounts as string[]) {
      const linked = nordigen.account(id);
      const { account } = await linked.getDetails();
      const want = expected[account.name as string];
      if (!want) throw new Error(`unexpected account ${account.name}`);
      seen.add(account.name);
      expect(account.currency).toBe(want.currency);
      const { balances } = await linked.getBalances();
      const byType = Object.fromEntries(
        (balances as { balanceType: string; balanceAmount: Money }[]).map((b) => [b.balanceType, b.balanceAmount]),
      );
      // The closing balances are at the end of yesterday (zero, or all of it if the day turned meanwhile): same currency, same places.
      const places = { EUR: /^\d+\.\d{2}$/, JPY: /^\d+$/, KWD: /^\d+\.\d{3}$/ }[want.currency];
      for (const [type, money] of Object.entries(byType)) {
        expect(money.currency, type).toBe(want.currency);
        expect(money.amount, type).toMatch(places as RegExp);
      }
      expect(byType.interimBooked).toEqual({ amount: want.balance, currency: want.currency });
      expect(byType.interimAvailable).toEqual({ amount: want.balance, currency: want.currency });
      const { transactions } = await linked.getTransactions();
      const amounts = (transactions.booked as { transactionAmount: Money }[]).map((t) => t.transactionAmount);
      expect(new Set(amounts.map((money) => money.currency))).toEqual(new Set([want.currency]));
      expect([...new Set(amounts.map((money) => money.amount))].sort()).toEqual(want.amounts);
      const after = (transactions.booked as { balanceAfterTransaction?: { balanceAmount: Money } }[])
        .map((t) => t.balanceAfterTransaction?.balanceAmount.currency)
        .filter(Boolean);
      expect(new Set(after)).toEqual(new Set([want.currency]));
    }
    expect(seen).toEqual(new Set(Object.keys(expected)));
  });
});
