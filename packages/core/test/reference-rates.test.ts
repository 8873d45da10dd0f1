/** The generated reference rates (domain/currencies/reference-rates.ts): deterministic, near their anchors, business-day steps. */
import { CURRENCIES } from '@sandbank/schemas';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { ANCHORS, crossRate, DEFAULT_FX_SEED, generatedLegs, rateDayOf } from '../src/domain/currencies/reference-rates.ts';

const rate = (seed: number, day: string, base: (typeof CURRENCIES)[number], quote: (typeof CURRENCIES)[number]) =>
  crossRate(generatedLegs(seed, day), base, quote).toFixed();

describe('reference rates', () => {
  it('are a function of (seed, day) alone: the values every machine computes for the default seed', () => {
    // A change to the generator changes every world's rates: these values are its contract (docs/concepts/currencies.md).
    const day = '2026-03-10';
    const golden = Object.fromEntries(CURRENCIES.map((c) => [c, rate(DEFAULT_FX_SEED, day, c, 'PLN')]));
    expect(golden).toMatchInlineSnapshot(`
      {
        "CHF": "4.4694591",
        "CZK": "0.17447219",
        "DKK": "0.57360458",
        "EUR": "4.2076457",
        "GBP": "5.0991398",
        "HUF": "0.010946181",
        "JPY": "0.02673809",
        "KWD": "12.969237",
        "NOK": "0.35768987",
        "PLN": "1",
        "SEK": "0.38035218",
        "USD": "3.9806619",
      }
    `);
    expect(rate(DEFAULT_FX_SEED, day, 'EUR', 'PLN')).toBe(rate(DEFAULT_FX_SEED, day, 'EUR', 'PLN'));
    expect(rate(7, day, 'EUR', 'PLN')).not.toBe(rate(DEFAULT_FX_SEED, day, 'EUR', 'PLN'));
  });

  it('stay within 4.3 % of their anchors every day of two years', () => {
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      const legs = generatedLegs(DEFAULT_FX_SEED, day);
      for (const currency of CURRENCIES) {
        const deviation = legs(currency).dividedBy(ANCHORS[currency]).minus(1).abs();
        expect(deviation.lte('0.0431'), `${currency} on ${day}`).toBe(true);
      }
    }
  });

  it('change on TARGET business days only: weekends, Good Friday, Easter Monday, 1 May and Christmas keep the last', () => {
    const same = (day: string, businessDay: string) => {
      expect(rateDayOf(day)).toBe(businessDay);
      for (const currency of CURRENCIES) expect(rate(3, day, currency, 'PLN')).toBe(rate(3, businessDay, currency, 'PLN'));
    };
    same('2026-03-14', '2026-03-13'); // Saturday → Friday
    same('2026-03-15', '2026-03-13'); // Sunday → Friday
    same('2026-04-03', '2026-04-02'); // Good Friday → Thursday
    same('2026-04-06', '2026-04-02'); // Easter Monday → Thursday
    same('2026-05-01', '2026-04-30');
    same('2026-12-26', '2026-12-24');
    same('2027-01-01', '2026-12-31');
    expect(rate(3, '2026-03-16', 'EUR', 'PLN')).not.toBe(rate(3, '2026-03-13', 'EUR', 'PLN'));
  });

  it('cross rates are the exact quotient of the PLN legs, rounded once to 12 significant digits', () => {
    const legs = generatedLegs(DEFAULT_FX_SEED, '2026-06-01');
    const expected = new Decimal(legs('EUR').toFixed())
      .dividedBy(legs('USD').toFixed())
      .toSignificantDigits(12, Decimal.ROUND_HALF_UP);
    expect(rate(DEFAULT_FX_SEED, '2026-06-01', 'EUR', 'USD')).toBe(expected.toFixed());
    expect(rate(DEFAULT_FX_SEED, '2026-06-01', 'PLN', 'JPY')).toMatch(/^3\d\.\d+$/);
    expect(rate(DEFAULT_FX_SEED, '2026-06-01', 'KWD', 'JPY')).toMatch(/^4\d\d\.\d+$/);
    expect(rate(DEFAULT_FX_SEED, '2026-06-01', 'EUR', 'EUR')).toBe('1');
  });
});
