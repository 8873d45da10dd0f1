/** The console's one locale (en-GB) for money, counts and dates, and amounts read back as typed. */
import { CURRENCIES } from '@sandbank/schemas';
import currencyCodes from 'currency-codes';
import { describe, expect, it } from 'vitest';
import {
  exponentOf,
  formatCount,
  formatDay,
  formatDayShort,
  formatMoney,
  formatMoneyCompact,
  parseAmount,
} from '../src/lib/format.ts';

describe('the console’s formats', () => {
  it('writes money in its own currency, counts and world days in en-GB', () => {
    expect(formatMoney(123_456_78, 'PLN')).toBe('PLN\u00a0123,456.78');
    expect(formatMoney(-1250, 'PLN')).toBe('-PLN\u00a012.50');
    expect(formatMoney(-1250, 'EUR')).toBe('-EUR\u00a012.50');
    expect(formatMoney(1, 'JPY')).toBe('JPY\u00a01');
    expect(formatMoney(1_234_567, 'JPY')).toBe('JPY\u00a01,234,567');
    expect(formatMoney(1, 'KWD')).toBe('KWD\u00a00.001');
    expect(formatMoney(-5, 'KWD')).toBe('-KWD\u00a00.005');
    // 10^13 minor units and beyond stay exact: formatted from a decimal string, not a divided float.
    expect(formatMoney(999_999_999_999_999, 'PLN')).toBe('PLN\u00a09,999,999,999,999.99');
    expect(formatMoneyCompact(1_234_567, 'PLN')).toBe('PLN\u00a012.3K');
    expect(formatCount(12_345)).toBe('12,345');
    expect(formatDay('2026-11-29')).toBe('29 Nov 2026');
    expect(formatDayShort('2026-02-01')).toBe('1 Feb');
  });

  it('takes each currency’s minor unit from Intl, which agrees with ISO 4217 for every currency an account may hold', () => {
    for (const code of CURRENCIES) expect(exponentOf(code), code).toBe(currencyCodes.code(code)?.digits);
  });

  it('reads what a person types, and what the console shows, as exact minor units of the currency', () => {
    expect(parseAmount('12.50', 'PLN')).toBe(1250);
    expect(parseAmount('12,5', 'PLN')).toBe(1250);
    expect(parseAmount('-1 234.5', 'PLN')).toBe(-123_450);
    expect(parseAmount('1,234.50', 'PLN')).toBe(123_450);
    expect(parseAmount('1,234,567.89', 'PLN')).toBe(123_456_789);
    expect(parseAmount('7', 'PLN')).toBe(700);
    // A comma before three digits reads two ways (1.234 or 1234): refused.
    expect(parseAmount('1,234', 'PLN')).toBeUndefined();
    expect(parseAmount('12.345', 'PLN')).toBeUndefined();
    expect(parseAmount('1,23,456.00', 'PLN')).toBeUndefined();
    expect(parseAmount('PLN 12', 'PLN')).toBeUndefined();
    // No minor unit: yen are whole, and a thousands comma cannot be a decimal mark.
    expect(parseAmount('1250', 'JPY')).toBe(1250);
    expect(parseAmount('1,250', 'JPY')).toBe(1250);
    expect(parseAmount('12.5', 'JPY')).toBeUndefined();
    // Three decimals: fils.
    expect(parseAmount('0.005', 'KWD')).toBe(5);
    expect(parseAmount('1,234.5', 'KWD')).toBe(1_234_500);
    expect(parseAmount('1.2345', 'KWD')).toBeUndefined();
  });
});
