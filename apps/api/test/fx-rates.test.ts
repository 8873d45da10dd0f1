/** The world's exchange rates (docs/concepts/currencies.md, "Rates"): GET and PUT /v1/fx/rates, seeds, pins as world data. */
import { fxRate } from '@sandbank/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Rates = Output['currencies']['listFxRates']['data'];

async function rates(user: { accessToken: string }, query: string): Promise<Rates> {
  const res = await app.call<Output['currencies']['listFxRates']>('GET', `/v1/fx/rates?${query}`, { token: user.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const rateOf = (list: Rates, quote: string) => list.find((r) => r.quote === quote)?.rate;

const pin = (user: { accessToken: string }, body: unknown) => app.call('PUT', '/v1/fx/rates', { token: user.accessToken, body });

describe('GET /v1/fx/rates', () => {
  it('gives two fresh worlds the same rates for a day, near the documented anchors', async () => {
    const [a, b] = [await app.createUser(), await app.createUser()];
    const first = await rates(a, 'date=2026-03-10&base=EUR');
    expect(await rates(b, 'date=2026-03-10&base=EUR')).toEqual(first);
    expect(first).toHaveLength(11);
    const eurPln = Number(rateOf(first, 'PLN'));
    expect(Math.abs(eurPln / 4.3 - 1)).toBeLessThan(0.045);
    const plnBased = await rates(a, 'date=2026-03-10');
    expect(plnBased[0]).toMatchObject({ base: 'PLN', date: '2026-03-10', rateDate: '2026-03-10', pinned: false });
    expect(Math.abs(Number(rateOf(plnBased, 'USD')) * 4 - 1)).toBeLessThan(0.045);
  });

  it('answers the world’s today when no date is given', async () => {
    const user = await app.createUser();
    const clock = await app.call('GET', '/v1/clock', { token: user.accessToken });
    const today = new Date(clock.body.data.now).toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
    const list = await rates(user, 'base=USD');
    expect(list[0]?.date).toBe(today);
    expect(list.map((r) => r.quote)).not.toContain('USD');
  });

  it('keeps Friday’s rate on the weekend and the last business day’s on a TARGET closing day', async () => {
    const user = await app.createUser();
    const friday = await rates(user, 'date=2026-03-13&base=EUR');
    for (const day of ['2026-03-14', '2026-03-15']) {
      const weekend = await rates(user, `date=${day}&base=EUR`);
      expect(weekend.map((r) => [r.quote, r.rate, r.rateDate])).toEqual(friday.map((r) => [r.quote, r.rate, '2026-03-13']));
    }
    expect(rateOf(await rates(user, 'date=2026-03-16&base=EUR'), 'PLN')).not.toBe(rateOf(friday, 'PLN'));
    // Good Friday and Easter Monday 2026 (3 and 6 April) keep Thursday's rates.
    const thursday = await rates(user, 'date=2026-04-02&base=GBP');
    for (const day of ['2026-04-03', '2026-04-06']) {
      expect((await rates(user, `date=${day}&base=GBP`)).map((r) => r.rate)).toEqual(thursday.map((r) => r.rate));
    }
  });

  it('refuses an unknown currency, a day that is not a date or lies outside the rates, with 400', async () => {
    const user = await app.createUser();
    for (const [query, path] of [
      ['base=XXX', 'base'],
      ['base=eur', 'base'],
      ['date=2026-02-30', 'date'],
      ['date=1998-12-31', 'date'],
      ['date=10000-01-01', 'date'],
      ['date=2026-3-1', 'date'],
    ] as const) {
      const res = await app.call('GET', `/v1/fx/rates?${query}`, { token: user.accessToken });
      expectRefusal(res, [400, 'VALIDATION_ERROR', path], query);
    }
  });
});

describe('PUT /v1/fx/rates', () => {
  it('pins a rate in one world: it wins that day and the weekend after, its inverse and crosses follow', async () => {
    const [user, other] = [await app.createUser(), await app.createUser()];
    const before = await rates(user, 'date=2026-03-13&base=EUR');
    const res = await pin(user, { date: '2026-03-13', base: 'EUR', quote: 'PLN', rate: '4.5000' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      date: '2026-03-13',
      rateDate: '2026-03-13',
      base: 'EUR',
      quote: 'PLN',
      rate: '4.5',
      pinned: true,
    });
    for (const day of ['2026-03-13', '2026-03-15']) {
      const after = await rates(user, `date=${day}&base=EUR`);
      expect(after.find((r) => r.quote === 'PLN')).toMatchObject({ rate: '4.5', pinned: true });
      // EUR/USD goes through the pinned EUR/PLN leg: 4.5 / USD/PLN, 12 significant digits.
      const usdPln = rateOf(await rates(user, `date=${day}&base=USD`), 'PLN') ?? '';
      expect(after.find((r) => r.quote === 'USD')).toMatchObject({ pinned: true });
      expect(Number(rateOf(after, 'USD'))).toBeCloseTo(4.5 / Number(usdPln), 9);
    }
    expect((await rates(user, 'date=2026-03-13&base=PLN')).find((r) => r.quote === 'EUR')).toMatchObject({
      rate: '0.222222222222',
      pinned: true,
    });
    // Monday has its own rate again; another world never saw the pin.
    expect(rateOf(await rates(user, 'date=2026-03-16&base=EUR'), 'PLN')).not.toBe('4.5');
    expect(await rates(other, 'date=2026-03-13&base=EUR')).toEqual(before);
  });

  it('replaces a pin of the same pair and of the inverse pair that day', async () => {
    const user = await app.createUser();
    expect((await pin(user, { date: '2026-03-10', base: 'USD', quote: 'JPY', rate: '150.25' })).status).toBe(200);
    expect((await pin(user, { date: '2026-03-10', base: 'USD', quote: 'JPY', rate: '151' })).status).toBe(200);
    expect(rateOf(await rates(user, 'date=2026-03-10&base=USD'), 'JPY')).toBe('151');
    expect((await pin(user, { date: '2026-03-10', base: 'JPY', quote: 'USD', rate: '0.005' })).status).toBe(200);
    expect(rateOf(await rates(user, 'date=2026-03-10&base=USD'), 'JPY')).toBe('200');
    const rows = await app.db.query('select base, quote, rate::text from fx_rate_pins where user_id = $1', [user.id]);
    expect(rows.rows).toEqual([{ base: 'JPY', quote: 'USD', rate: '0.005' }]);
  });

  it('refuses a bad pin with 400 and stores nothing', async () => {
    const user = await app.createUser();
    const good = { date: '2026-03-10', base: 'EUR', quote: 'PLN', rate: '4.3' };
    for (const [body, path] of [
      [{ ...good, rate: '0' }, 'rate'],
      [{ ...good, rate: '0.000' }, 'rate'],
      [{ ...good, rate: '-4.3' }, 'rate'],
      [{ ...good, rate: '4,3' }, 'rate'],
      [{ ...good, rate: '4.3e1' }, 'rate'],
      [{ ...good, rate: 4.3 }, 'rate'],
      [{ ...good, rate: '1234567890123' }, 'rate'],
      [{ ...good, rate: '1.123456789012345678901' }, 'rate'],
      [{ ...good, base: 'BHD' }, 'base'],
      [{ ...good, quote: 'EUR' }, 'quote'],
      [{ ...good, date: '1998-12-31' }, 'date'],
      [{ ...good, date: '2026-02-29' }, 'date'],
      [{ ...good, extra: 1 }, undefined],
    ] as const) {
      const res = await pin(user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      if (path)
        expect(
          res.body.details.map((d: { path: string }) => d.path),
          JSON.stringify(body),
        ).toContain(path);
    }
    const rows = await app.db.query('select count(*)::int as n from fx_rate_pins where user_id = $1', [user.id]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('keeps at most 1000 pins per world (422 LIMIT_EXCEEDED), replacing one still works', async () => {
    const user = await app.createUser();
    await app.db.query(
      `insert into fx_rate_pins (user_id, day, base, quote, rate)
       select $1, date '2026-01-01' + n, 'EUR', 'PLN', 4.3 from generate_series(0, 999) n`,
      [user.id],
    );
    const over = await pin(user, { date: '2029-01-01', base: 'EUR', quote: 'PLN', rate: '4.4' });
    expectRefusal(over, [422, 'LIMIT_EXCEEDED', 'rate'], 'the 1001st pin');
    expect((await pin(user, { date: '2026-01-01', base: 'PLN', quote: 'EUR', rate: '0.25' })).status).toBe(200);
  });
});

describe('fxRate, the rate payments convert at', () => {
  it('answers what GET /v1/fx/rates shows, pins included', async () => {
    const user = await app.createUser();
    expect((await pin(user, { date: '2026-03-13', base: 'EUR', quote: 'PLN', rate: '4.4' })).status).toBe(200);
    for (const [date, base, quote] of [
      ['2026-03-14', 'EUR', 'PLN'],
      ['2026-03-14', 'USD', 'EUR'],
      ['2026-07-01', 'JPY', 'KWD'],
      ['2026-07-01', 'PLN', 'PLN'],
    ] as const) {
      const shown = base === quote ? '1' : rateOf(await rates(user, `date=${date}&base=${base}`), quote);
      expect(await fxRate(app.orm.em.fork(), { userId: user.id, date, base, quote })).toBe(shown);
    }
  });
});

describe('rates are world data', () => {
  const child = async (user: TestUser, snapshotId: string) => {
    const res = await app.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { accessToken: string };
  };

  it('a snapshot keeps the pins and the seed; a fork carries them, a reset removes them, a restore brings them back', async () => {
    const user = await app.createUser();
    const applied = await app.call('POST', '/v1/scenarios/apply', {
      token: user.accessToken,
      body: { scenario: { version: 1, seed: 1, fxSeed: 7, accounts: [] } },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const seeded = await rates(user, 'date=2026-03-10&base=EUR');
    const fresh = await app.createUser();
    const defaults = await rates(fresh, 'date=2026-03-10&base=EUR');
    expect(rateOf(seeded, 'PLN')).not.toBe(rateOf(defaults, 'PLN'));
    expect((await pin(user, { date: '2026-03-11', base: 'CHF', quote: 'PLN', rate: '4.75' })).status).toBe(200);

    const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'fx' } });
    expect(snap.status, JSON.stringify(snap.body)).toBe(201);
    const fork = await child(user, snap.body.data.id);
    expect(await rates(fork, 'date=2026-03-10&base=EUR')).toEqual(seeded);
    expect(rateOf(await rates(fork, 'date=2026-03-11&base=CHF'), 'PLN')).toBe('4.75');

    const reset = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
    expect(reset.status).toBe(200);
    expect(await rates(user, 'date=2026-03-10&base=EUR')).toEqual(defaults);
    expect((await rates(user, 'date=2026-03-11&base=CHF')).find((r) => r.quote === 'PLN')?.pinned).toBe(false);
    // The fork is a world of its own: the parent's reset leaves it alone.
    expect(rateOf(await rates(fork, 'date=2026-03-11&base=CHF'), 'PLN')).toBe('4.75');

    const restored = await app.call('POST', '/v1/sandbox/restore', {
      token: user.accessToken,
      body: { snapshotId: snap.body.data.id },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await rates(user, 'date=2026-03-10&base=EUR')).toEqual(seeded);
    expect(rateOf(await rates(user, 'date=2026-03-11&base=CHF'), 'PLN')).toBe('4.75');
  });

  it('two worlds with the same fxSeed agree, whatever else their scenario holds', async () => {
    const [a, b] = [await app.createUser(), await app.createUser()];
    for (const [user, seed] of [
      [a, 1],
      [b, 99],
    ] as const) {
      const res = await app.call('POST', '/v1/scenarios/apply', {
        token: user.accessToken,
        body: { scenario: { version: 1, seed, fxSeed: 123_456, accounts: [] } },
      });
      expect(res.status).toBe(200);
    }
    expect(await rates(a, 'date=2027-06-15&base=KWD')).toEqual(await rates(b, 'date=2027-06-15&base=KWD'));
  });
});
