/**
 * Card payments in another currency (docs/concepts/currencies.md, "Card payments abroad"): converted at the
 * world's rate plus the account's card FX margin, rounded once; the conversion carried everywhere a
 * Transaction goes; PLN answers unchanged.
 */
import { simulate } from '@sandbank/testing/fixtures';
import { Decimal as BaseDecimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser, visibleEvents } from './helpers.ts';

/** Enough digits for any product here, so the only rounding is the one the test asks for. */
const Decimal = BaseDecimal.clone({ precision: 60 });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Txn = Output['transactions']['getTransaction']['data'];

/** A Friday, and the Saturday after it: the world's clock (wall time) is later than both. */
const FRIDAY = '2026-11-20';
const AT_FRIDAY = '2026-11-20T11:00:00.000Z';
const AT_SATURDAY = '2026-11-21T11:00:00.000Z';

async function open(user: TestUser, currency: string, extra: Record<string, unknown> = {}, funds = 0): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', {
    token: user.accessToken,
    body: { name: `${currency} ${Math.random()}`, currency, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (funds > 0) expect((await simulate(app, user, { accountId: res.body.data.id, amount: funds })).status).toBe(201);
  return res.body.data.id;
}

async function pin(user: TestUser, base: string, quote: string, rate: string, date = FRIDAY) {
  const res = await app.call('PUT', '/v1/fx/rates', { token: user.accessToken, body: { date, base, quote, rate } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const pay = (user: TestUser, body: Record<string, unknown>) =>
  app.call('POST', '/v1/simulations/transaction', { token: user.accessToken, body: { date: AT_FRIDAY, ...body } });

/** The amount an independent decimal computation expects: original × rate, to the target's exponent, half away from zero. */
const expected = (original: number, rate: string, shift: number) =>
  Number(
    new Decimal(original).times(rate).times(new Decimal(10).pow(shift)).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0),
  );

describe('POST /v1/simulations/transaction with originalAmount and originalCurrency', () => {
  it('converts a debit at the day’s rate plus the default 2 % margin and keeps the conversion', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', {}, 1_000_00);
    const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    expect(account.body.data.cardFxMargin).toBe('0.02');
    await pin(user, 'EUR', 'PLN', '4.3');
    const res = await pay(user, { accountId, originalAmount: -25_00, originalCurrency: 'EUR', merchant: 'Café de Flore' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.transaction).toMatchObject({
      amount: -109_65, // 25.00 × 4.3 × 1.02 = 109.65
      currency: 'PLN',
      originalAmount: -25_00,
      originalCurrency: 'EUR',
      exchangeRate: '4.386000000',
    });
    expect(res.body.data.balance).toBe(1_000_00 - 109_65);
  });

  it('gives a refund (a credit) the rate less the margin, and a Saturday Friday’s rate', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN');
    await pin(user, 'EUR', 'PLN', '4.3');
    const res = await pay(user, { accountId, originalAmount: 25_00, originalCurrency: 'EUR', date: AT_SATURDAY });
    expect(res.body.data.transaction).toMatchObject({ amount: 105_35, originalAmount: 25_00, exchangeRate: '4.214000000' });
  });

  it('uses the generated rate of the world when nothing is pinned, the same one GET /v1/fx/rates shows', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'EUR', { cardFxMargin: '0.015' }, 500_00);
    const rates = await app.call('GET', `/v1/fx/rates?date=${FRIDAY}&base=USD`, { token: user.accessToken });
    const usdEur = rates.body.data.find((r: { quote: string }) => r.quote === 'EUR').rate;
    const res = await pay(user, { accountId, originalAmount: -123_45, originalCurrency: 'USD' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rate = new Decimal(usdEur).times('1.015');
    expect(res.body.data.transaction.exchangeRate).toBe(rate.toFixed());
    expect(res.body.data.transaction.amount).toBe(expected(-123_45, rate.toFixed(), 0));
  });

  it('is exact at the extremes: JPY 1, KWD 0.001, 10^13 minor units, the midpoint, a rate with many decimals', async () => {
    const user = await app.createUser();
    const pln = await open(user, 'PLN', { cardFxMargin: '0' }, 900_000_000_000);
    const kwd = await open(user, 'KWD', { cardFxMargin: '0' }, 1_000);
    await pin(user, 'JPY', 'PLN', '0.0265');
    await pin(user, 'PLN', 'KWD', '0.0766');
    await pin(user, 'HUF', 'PLN', '0.0109');
    await pin(user, 'EUR', 'PLN', '4.3');
    const cases: [string, number, string, number, string][] = [
      [pln, -1, 'JPY', -3, '0.02650000000'], // ¥1 = 2.65 gr → 3 gr
      [kwd, -1, 'PLN', -1, '0.07660000000'], // 0.01 PLN = 0.766 fils → 1 fils
      [pln, -(10 ** 13), 'HUF', -109_000_000_000, '0.01090000000'], // 10^11 HUF = 1.09 × 10^9 PLN
      [pln, -15, 'EUR', -65, '4.300000000'], // 0.15 EUR = 64.5 gr exactly: away from zero
      [pln, 15, 'EUR', 65, '4.300000000'],
    ];
    for (const [accountId, originalAmount, originalCurrency, amount, exchangeRate] of cases) {
      const res = await pay(user, { accountId, originalAmount, originalCurrency });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.transaction).toMatchObject({ amount, originalAmount, originalCurrency, exchangeRate });
    }
    const many = await open(user, 'PLN', {}, 10_000);
    await pin(user, 'CHF', 'PLN', '4.12345678901234567891');
    const res = await pay(user, { accountId: many, originalAmount: -100, originalCurrency: 'CHF' });
    const rate = new Decimal('4.12345678901234567891').times('1.02');
    expect(res.body.data.transaction).toMatchObject({ exchangeRate: rate.toFixed(), amount: expected(-100, rate.toFixed(), 0) });
    expect(res.body.data.transaction.exchangeRate).toBe('4.2059259247925925924882');
  });

  it('takes an explicit amount as the rate: amount / originalAmount, 12 significant digits', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', {}, 1_000_00);
    const res = await pay(user, { accountId, amount: -44_00, originalAmount: -10_00, originalCurrency: 'EUR' });
    expect(res.body.data.transaction).toMatchObject({ amount: -44_00, originalAmount: -10_00, exchangeRate: '4.400000000' });
    const jpy = await pay(user, { accountId, amount: -1_00, originalAmount: -37, originalCurrency: 'JPY' });
    expect(jpy.body.data.transaction.exchangeRate).toBe('0.027027027027'); // 1 PLN / ¥37 = 0.0270270270270 to 12 digits
  });

  it('refuses what does not add up with 400, and books nothing', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', {}, 1_000_00);
    const cases: [Record<string, unknown>, string][] = [
      [{ originalAmount: -100 }, 'originalCurrency'],
      [{ originalCurrency: 'EUR' }, 'originalAmount'],
      [{}, 'amount'],
      [{ originalAmount: -100, originalCurrency: 'PLN' }, 'originalCurrency'],
      [{ originalAmount: -100, originalCurrency: 'BHD' }, 'originalCurrency'],
      [{ originalAmount: 0, originalCurrency: 'EUR' }, 'originalAmount'],
      [{ originalAmount: -1.5, originalCurrency: 'EUR' }, 'originalAmount'],
      [{ originalAmount: -(10 ** 16), originalCurrency: 'EUR' }, 'originalAmount'],
      [{ originalAmount: '-100', originalCurrency: 'EUR' }, 'originalAmount'],
      [{ amount: 100, originalAmount: -100, originalCurrency: 'EUR' }, 'originalAmount'],
      [{ originalAmount: -(10 ** 15), originalCurrency: 'KWD' }, 'originalAmount'], // beyond 10^12 once converted
      [{ originalAmount: -1, originalCurrency: 'HUF' }, 'originalAmount'], // 0.01 HUF is 0 gr
      [{ originalAmount: -100, originalCurrency: 'EUR', date: '1998-12-31T12:00:00Z' }, 'date'],
    ];
    for (const [body, path] of cases) {
      const res = await pay(user, { accountId, ...body });
      expectRefusal(res, [400, 'VALIDATION_ERROR', path], JSON.stringify(body));
    }
    const history = await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
    expect(history.body.data).toHaveLength(1);
  });

  it('is idempotent on the request, not on the rate: a repeat answers the original, another payload is 409', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', {}, 1_000_00);
    const body = { accountId, originalAmount: -10_00, originalCurrency: 'EUR', externalTxnId: 'card-1' };
    const first = await pay(user, body);
    expect(first.status).toBe(201);
    await pin(user, 'EUR', 'PLN', '5');
    const again = await pay(user, body);
    expect([again.status, again.body.data.transaction]).toEqual([200, first.body.data.transaction]);
    expect((await pay(user, { ...body, originalAmount: -11_00 })).status).toBe(409);
    expect((await pay(user, { ...body, originalCurrency: 'USD' })).status).toBe(409);
  });

  it('never overdraws under concurrent converted debits', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', { cardFxMargin: '0' }, 100_00);
    await pin(user, 'EUR', 'PLN', '4');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => pay(user, { accountId, originalAmount: -10_00, originalCurrency: 'EUR' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 422, 422, 422, 422]);
    const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    expect(account.body.data).toMatchObject({ balance: 20_00, availableBalance: 20_00 });
  });
});

describe('card payments at the world’s now (one statement checking what the last conversion read)', () => {
  const now = (user: TestUser, accountId: string, originalAmount = -10_00) =>
    pay(user, { accountId, originalAmount, originalCurrency: 'EUR', date: undefined });
  const todaysRate = async (user: TestUser) => {
    const rates = await app.call('GET', '/v1/fx/rates?base=EUR', { token: user.accessToken });
    return rates.body.data.find((r: { quote: string }) => r.quote === 'PLN').rate as string;
  };
  const warsawDay = (iso: string) => new Date(iso).toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });

  it('sees the world’s next day and a pin made after the account’s last conversion at once', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', { cardFxMargin: '0' }, 10_000_00);
    const first = await now(user, accountId);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const generated = await todaysRate(user);
    expect(new Decimal(first.body.data.transaction.exchangeRate).eq(generated)).toBe(true);
    const second = await now(user, accountId);
    expect(second.body.data.transaction.exchangeRate).toBe(first.body.data.transaction.exchangeRate);
    expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P1D' } })).status).toBe(200);
    const nextDay = await now(user, accountId);
    expect(nextDay.status).toBe(201);
    expect(new Decimal(nextDay.body.data.transaction.exchangeRate).eq(await todaysRate(user))).toBe(true);
    expect(warsawDay(nextDay.body.data.transaction.date)).not.toBe(warsawDay(first.body.data.transaction.date));
    await now(user, accountId);
    await pin(user, 'EUR', 'PLN', '5', warsawDay(nextDay.body.data.transaction.date));
    const pinned = await now(user, accountId);
    expect(pinned.body.data.transaction).toMatchObject({ amount: -50_00, exchangeRate: '5.000000000' });
    const refused = await now(user, accountId, -1_000_000_00);
    expect(refused.status).toBe(422);
  });

  it('converts each direction and currency at its own rate: a debit at rate × (1 + margin), a refund at rate × (1 − margin)', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', { cardFxMargin: '0.03' }, 10_000_00);
    expect((await now(user, accountId)).status).toBe(201); // the account's first conversion: read, then remembered
    const today: Record<string, string> = {};
    for (const base of ['EUR', 'USD']) {
      const rates = await app.call('GET', `/v1/fx/rates?base=${base}`, { token: user.accessToken });
      today[base] = rates.body.data.find((r: { quote: string }) => r.quote === 'PLN').rate;
    }
    for (const [originalAmount, originalCurrency] of [
      [10_00, 'EUR'],
      [-10_00, 'EUR'],
      [-10_00, 'USD'],
      [10_00, 'USD'],
      [10_00, 'EUR'],
      [-10_00, 'USD'],
    ] as const) {
      const res = await pay(user, { accountId, originalAmount, originalCurrency, date: undefined });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const effective = new Decimal(today[originalCurrency] as string).times(originalAmount < 0 ? '1.03' : '0.97');
      const { amount, exchangeRate } = res.body.data.transaction;
      expect(
        new Decimal(exchangeRate).toSignificantDigits(9).eq(effective.toSignificantDigits(9)),
        `${originalAmount} ${originalCurrency}`,
      ).toBe(true);
      expect(amount, `${originalAmount} ${originalCurrency}`).toBe(expected(originalAmount, effective.toFixed(), 0));
    }
  });

  it('gives bookings racing a pin either the rate before it or the pinned one, never another', async () => {
    const user = await app.createUser();
    const accountId = await open(user, 'PLN', { cardFxMargin: '0' }, 10_000_00);
    const first = await now(user, accountId);
    const before = first.body.data.transaction.exchangeRate as string;
    const [bookings] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => now(user, accountId))),
      pin(user, 'EUR', 'PLN', '5', warsawDay(first.body.data.transaction.date)),
    ]);
    for (const res of bookings) {
      expect(res.status).toBe(201);
      expect([before, '5.000000000']).toContain(res.body.data.transaction.exchangeRate);
    }
    expect((await now(user, accountId)).body.data.transaction.exchangeRate).toBe('5.000000000');
  });
});

describe('the conversion travels with the transaction', () => {
  it('through reads, history, events, the pull endpoint, sync, snapshots and forks; a PLN transaction stays as it was', async () => {
    const user = await app.createUser();
    const key = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Pull' } });
    const accountId = await open(user, 'EUR', { cardFxMargin: '0.01' }, 100_00);
    const converted = (await pay(user, { accountId, originalAmount: -1_000, originalCurrency: 'JPY', status: 'pending' })).body
      .data.transaction as Txn;
    const plain = (await simulate(app, user, { accountId, amount: -1_00 })).body.data.transaction as Txn;
    expect(Object.keys(plain)).toEqual([
      'id',
      'externalTxnId',
      'accountId',
      'amount',
      'currency',
      'date',
      'description',
      'raw',
      'status',
      'postedAt',
      'version',
      'merchant',
      'category',
      'reversalOf',
    ]);
    const conversion = {
      originalAmount: converted.originalAmount,
      originalCurrency: 'JPY',
      exchangeRate: converted.exchangeRate,
    };
    expect(conversion.originalAmount).toBe(-1_000);
    const posted = await app.call('POST', `/v1/transactions/${converted.id}/post`, { token: user.accessToken, body: {} });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data.transaction).toMatchObject({ status: 'posted', ...conversion });

    const read = await app.call('GET', `/v1/transactions/${converted.id}`, { token: user.accessToken });
    expect(read.body.data).toMatchObject(conversion);
    const history = await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
    const byId = (list: Txn[], id: string) => list.find((t) => t.id === id);
    expect(byId(history.body.data, converted.id)).toMatchObject(conversion);
    expect(byId(history.body.data, plain.id)).not.toHaveProperty('originalAmount');

    const events = await visibleEvents(app, user, 4);
    const ofConverted = events.filter((e) => e.data.transaction?.id === converted.id);
    expect(ofConverted.map((e) => e.type)).toEqual(expect.arrayContaining(['transaction.created', 'transaction.updated']));
    for (const event of ofConverted) expect(event.data.transaction).toMatchObject(conversion);
    expect(events.find((e) => e.data.transaction?.id === plain.id)?.data.transaction).not.toHaveProperty('exchangeRate');

    const pulled = await app.call('GET', `/api/owner/${user.id}/transactions`, { token: key.body.data.key });
    expect(byId(pulled.body.data, converted.id)).toMatchObject(conversion);
    const sync = await app.call('GET', '/v1/transactions/sync', { token: user.accessToken });
    expect(byId(sync.body.data.added, converted.id)).toMatchObject(conversion);

    const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'abroad' } });
    const fork = await app.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId: snap.body.data.id } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const childAccounts = await app.call('GET', '/v1/accounts', { token: fork.body.data.accessToken });
    expect(childAccounts.body.data[0]).toMatchObject({ currency: 'EUR', cardFxMargin: '0.01' });
    const childHistory = await app.call('GET', `/v1/accounts/${childAccounts.body.data[0].id}/transactions`, {
      token: fork.body.data.accessToken,
    });
    expect(childHistory.body.data.filter((t: Txn) => t.originalCurrency === 'JPY')).toEqual([
      expect.objectContaining({ amount: converted.amount, ...conversion }),
    ]);
  });

  it('refuses a card FX margin outside 0 … 0.1 when an account is opened', async () => {
    const user = await app.createUser();
    for (const cardFxMargin of ['0.2', '0.100001', '-0.01', '1', 'abc', '0.02%', 0.02, '0.10001']) {
      const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'M', cardFxMargin } });
      expectRefusal(res, [400, 'VALIDATION_ERROR', 'cardFxMargin'], String(cardFxMargin));
    }
    for (const cardFxMargin of ['0', '0.1', '0.10000', '0.00001']) {
      const res = await app.call('POST', '/v1/accounts', {
        token: user.accessToken,
        body: { name: `M${cardFxMargin}`, cardFxMargin },
      });
      expect(res.status, cardFxMargin).toBe(201);
    }
  });
});
