/** The console's one locale (en-GB) for money, counts and dates, and amounts read back as typed. */
import { describe, expect, it } from 'vitest';
import { formatCount, formatDay, formatDayShort, formatMoney, formatMoneyCompact, parseAmount } from '../src/lib/format.ts';

describe('the console’s formats', () => {
  it('writes złoty, counts and world days in en-GB', () => {
    expect(formatMoney(123_456_78)).toBe('PLN\u00a0123,456.78');
    expect(formatMoney(-1250)).toBe('-PLN\u00a012.50');
    expect(formatMoneyCompact(1_234_567)).toBe('PLN\u00a012.3K');
    expect(formatMoney(-1, 'JPY')).toBe('-JPY\u00a01');
    expect(formatMoney(1_234_567, 'JPY')).toBe('JPY\u00a01,234,567');
    expect(formatMoney(1, 'KWD')).toBe('KWD\u00a00.001');
    expect(formatMoney(-1_234_56, 'EUR')).toBe('-EUR\u00a01,234.56');
    expect(formatCount(12_345)).toBe('12,345');
    expect(formatDay('2026-11-29')).toBe('29 Nov 2026');
    expect(formatDayShort('2026-02-01')).toBe('1 Feb');
  });

  it('reads what a person types, and what the console shows, as exact minor units', () => {
    expect(parseAmount('12.50')).toBe(1250);
    expect(parseAmount('12,5')).toBe(1250);
    expect(parseAmount('-1 234.5')).toBe(-123_450);
    expect(parseAmount('1,234.50')).toBe(123_450);
    expect(parseAmount('1,234,567.89')).toBe(123_456_789);
    expect(parseAmount('7')).toBe(700);
    // A comma before three digits reads two ways (1.234 or 1234): refused.
    expect(parseAmount('1,234')).toBeUndefined();
    expect(parseAmount('12.345')).toBeUndefined();
    expect(parseAmount('1,23,456.00')).toBeUndefined();
    expect(parseAmount('PLN 12')).toBeUndefined();
  });
});
