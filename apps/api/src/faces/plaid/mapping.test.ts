/** The face's conversions, each at its edges: money at 0.01 and 10^13, never -0; Warsaw dates across midnight and DST; ids. */
import { describe, expect, it } from 'vitest';
import { localDate, majorUnits, personalFinanceCategory, plaidAmount, plaidTransactionId, startOfLocalDate } from './mapping.ts';

describe('money', () => {
  it('is exact at one grosz and at 10^13, with the sign inverted for transactions', () => {
    expect(plaidAmount(-1, 'PLN')).toBe(0.01);
    expect(plaidAmount(1, 'PLN')).toBe(-0.01);
    expect(plaidAmount(-(10 ** 13), 'PLN')).toBe(100_000_000_000);
    expect(plaidAmount(10 ** 13 + 99, 'PLN')).toBe(-100_000_000_000.99);
    expect(majorUnits(10 ** 15, 'PLN')).toBe(10_000_000_000_000);
    expect(majorUnits(-1234_56, 'PLN')).toBe(-1234.56);
    expect(majorUnits(-5, 'PLN')).toBe(-0.05);
  });

  it('has the places of the currency: none for JPY, three for KWD', () => {
    expect(plaidAmount(-1, 'JPY')).toBe(1);
    expect(plaidAmount(1, 'JPY')).toBe(-1);
    expect(plaidAmount(-1, 'KWD')).toBe(0.001);
    expect(majorUnits(-1, 'KWD')).toBe(-0.001);
    expect(majorUnits(10 ** 13, 'JPY')).toBe(10_000_000_000_000);
    expect(majorUnits(-(10 ** 13) - 1, 'KWD')).toBe(-10_000_000_000.001);
    expect(majorUnits(1234_56, 'EUR')).toBe(1234.56);
    expect(Object.is(majorUnits(-0, 'JPY'), 0)).toBe(true);
    expect(JSON.stringify({ amount: plaidAmount(0, 'KWD') })).toBe('{"amount":0}');
  });

  it('never answers -0', () => {
    expect(Object.is(plaidAmount(0, 'PLN'), 0)).toBe(true);
    expect(Object.is(majorUnits(-0, 'PLN'), 0)).toBe(true);
    expect(JSON.stringify({ amount: plaidAmount(0, 'PLN') })).toBe('{"amount":0}');
  });

  it('refuses what is not a safe integer', () => {
    expect(() => majorUnits(0.5, 'PLN')).toThrow(RangeError);
    expect(() => majorUnits(2 ** 53, 'PLN')).toThrow(RangeError);
  });
});

describe('dates', () => {
  it('are local dates in Europe/Warsaw', () => {
    expect(localDate('2026-01-14T22:59:59.999Z')).toBe('2026-01-14');
    expect(localDate('2026-01-14T23:00:00.000Z')).toBe('2026-01-15'); // CET, +01:00
    expect(localDate('2026-07-14T21:59:59.999Z')).toBe('2026-07-14');
    expect(localDate('2026-07-14T22:00:00.000Z')).toBe('2026-07-15'); // CEST, +02:00
  });

  it('start at Warsaw midnight, also on DST days', () => {
    expect(startOfLocalDate('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfLocalDate('2026-03-30').toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });
});

describe('ids and categories', () => {
  it('derive a pending and a posted id from the Sandbank id', () => {
    const id = '0195c7a0-0000-7000-8000-000000000001';
    expect(plaidTransactionId({ id, status: 'pending' })).toBe(`pending-${id}`);
    expect(plaidTransactionId({ id, status: 'voided' })).toBe(`pending-${id}`);
    expect(plaidTransactionId({ id, status: 'posted' })).toBe(`posted-${id}`);
  });

  it('split transfers and cash by direction', () => {
    expect(personalFinanceCategory('transfer', 100)?.primary).toBe('TRANSFER_IN');
    expect(personalFinanceCategory('transfer', -100)?.primary).toBe('TRANSFER_OUT');
    expect(personalFinanceCategory('cash', -100)?.detailed).toBe('TRANSFER_OUT_WITHDRAWAL');
    expect(personalFinanceCategory('groceries', -100)).toEqual({
      primary: 'FOOD_AND_DRINK',
      detailed: 'FOOD_AND_DRINK_GROCERIES',
      confidence_level: 'VERY_HIGH',
    });
    expect(personalFinanceCategory(null, -100)).toBeNull();
  });
});
