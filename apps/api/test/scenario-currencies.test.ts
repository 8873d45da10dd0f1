/**
 * Scenarios in other currencies (docs/concepts/scenarios.md, docs/concepts/currencies.md): `currency` per
 * account, the `abroad` profile's payments in EUR and USD converted at the world's reference rates, `fxSeed`,
 * and export → apply keeping all of it.
 */
import { Decimal as BaseDecimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { apply, comparable, exported } from './scenario-calls.ts';

const Decimal = BaseDecimal.clone({ precision: 60 });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Txn = Output['transactions']['getTransaction']['data'];

async function accountsOf(user: TestUser) {
  return (await app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts', { token: user.accessToken })).body.data;
}

async function historyOf(user: TestUser, accountId: string): Promise<Txn[]> {
  const res = await app.call('GET', `/v1/accounts/${accountId}/transactions?limit=200`, { token: user.accessToken });
  return res.body.data;
}

describe('scenario accounts in other currencies', () => {
  it('opens each account in its currency; explicit amounts are its minor units; a generated history spends in it', async () => {
    const user = await app.createUser();
    const scenario = {
      version: 1,
      seed: 5,
      accounts: [
        { key: 'yen', name: 'Yen', currency: 'JPY', openingBalance: 100_000 },
        { key: 'dinar', name: 'Dinar', currency: 'KWD', transactions: [{ at: '-P1D', amount: 1, description: 'One fils' }] },
        { key: 'euro', name: 'Euro', currency: 'EUR', openingBalance: 2_000_00, history: { months: 2, profile: 'student' } },
        { key: 'zloty', name: 'Zloty', openingBalance: 10_00 },
      ],
    };
    const res = await apply(app, user, { scenario });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const accounts = await accountsOf(user);
    const by = (name: string) => accounts.find((a) => a.name === name);
    expect(by('Yen')).toMatchObject({ currency: 'JPY', balance: 100_000 });
    expect(by('Dinar')).toMatchObject({ currency: 'KWD', balance: 1 });
    expect(by('Zloty')).toMatchObject({ currency: 'PLN', balance: 10_00 });
    const euro = await historyOf(user, by('Euro')?.id ?? '');
    expect(new Set(euro.map((t) => t.currency))).toEqual(new Set(['EUR']));
    // The student's złoty amounts moved at the EUR anchor (4.30): a 25–180 PLN grocery is 5.81–41.86 EUR.
    const groceries = euro.filter((t) => t.merchant === 'Biedronka').map((t) => -t.amount);
    expect(groceries.length).toBeGreaterThan(0);
    for (const amount of groceries) {
      expect(amount).toBeGreaterThanOrEqual(5_81);
      expect(amount).toBeLessThanOrEqual(41_86);
    }
  });
});

describe('the abroad profile', () => {
  it('books a EUR salary, USD subscriptions and holiday payments converted at the world’s reference rates plus 2 %', async () => {
    const user = await app.createUser();
    const scenario = {
      version: 1,
      seed: 9,
      fxSeed: 4242,
      accounts: [{ key: 'main', name: 'Main', openingBalance: 5_000_00, history: { months: 3, profile: 'abroad' } }],
    };
    const res = await apply(app, user, { scenario });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [account] = await accountsOf(user);
    const history = await historyOf(user, account?.id ?? '');
    const converted = history.filter((t) => t.originalCurrency);
    expect(new Set(converted.map((t) => t.originalCurrency))).toEqual(new Set(['EUR', 'USD']));
    expect(converted.filter((t) => t.merchant === 'ACME GmbH').map((t) => t.originalAmount)).toEqual([
      2_400_00, 2_400_00, 2_400_00,
    ]);
    for (const t of converted) {
      // amount = originalAmount × exchangeRate, rounded once half away from zero; the rate has ≥ 10 significant digits.
      const expected = new Decimal(t.originalAmount ?? 0).times(t.exchangeRate ?? '0').toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
      expect(t.amount, JSON.stringify(t)).toBe(expected.toNumber());
      expect((t.exchangeRate ?? '').replace('.', '').replace(/^0+/, '').length).toBeGreaterThanOrEqual(10);
      expect(Math.sign(t.amount)).toBe(Math.sign(t.originalAmount ?? 0));
    }
    // A credit gets the rate less the margin, a debit more: the salary's EUR rate is below the subscriptions' (in PLN per unit).
    const salaryRate = Number(converted.find((t) => t.merchant === 'ACME GmbH')?.exchangeRate);
    expect(salaryRate).toBeGreaterThan(4.3 * 0.9);
    expect(salaryRate).toBeLessThan(4.3 * 1.1);

    // The same scenario in another world gives the same history (the rates come from fxSeed alone).
    const other = await app.createUser();
    expect((await apply(app, other, { scenario })).status).toBe(200);
    const [otherAccount] = await accountsOf(other);
    const pick = (list: Txn[]) =>
      list.map((t) => [t.externalTxnId, t.amount, t.originalAmount, t.originalCurrency, t.exchangeRate]);
    expect(pick(await historyOf(other, otherAccount?.id ?? ''))).toEqual(pick(history));
  });

  it('exports currencies, fxSeed and conversions, and applying the export gives the same world', async () => {
    const user = await app.createUser();
    const scenario = {
      version: 1,
      seed: 3,
      fxSeed: 77,
      accounts: [
        { key: 'main', name: 'Main', openingBalance: 3_000_00, history: { months: 1, profile: 'abroad' } },
        { key: 'eur', name: 'Euro', currency: 'EUR', openingBalance: 1_00 },
      ],
    };
    expect((await apply(app, user, { scenario })).status).toBe(200);
    const document = await exported(app, user);
    expect(document.fxSeed).toBe(77);
    expect(document.accounts.map((a: { currency?: string }) => a.currency)).toEqual([undefined, 'EUR']);
    const conversions = document.accounts[0].transactions.filter((t: { originalCurrency?: string }) => t.originalCurrency);
    expect(conversions.length).toBeGreaterThan(0);
    const copy = await app.createUser();
    const applied = await apply(app, copy, { scenario: document });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(comparable(await exported(app, copy))).toEqual(comparable(document));
  });

  it('refuses an explicit conversion that does not add up, with 400', async () => {
    const user = await app.createUser();
    const transaction = { at: '-P1D', amount: -100, description: 'x' };
    for (const [extra, path] of [
      [{ originalAmount: -10 }, 'scenario.accounts.0.transactions.0.originalAmount'],
      [{ originalAmount: 10, originalCurrency: 'EUR', exchangeRate: '10' }, 'scenario.accounts.0.transactions.0.originalAmount'],
      [
        { originalAmount: -10, originalCurrency: 'PLN', exchangeRate: '10' },
        'scenario.accounts.0.transactions.0.originalCurrency',
      ],
      [{ originalAmount: -10, originalCurrency: 'EUR', exchangeRate: '0' }, 'scenario.accounts.0.transactions.0.exchangeRate'],
    ] as const) {
      const scenario = {
        version: 1,
        seed: 1,
        accounts: [{ key: 'a', name: 'A', openingBalance: 1_00, transactions: [{ ...transaction, ...extra }] }],
      };
      const res = await apply(app, user, { scenario });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await accountsOf(user)).toEqual([]);
  });
});
