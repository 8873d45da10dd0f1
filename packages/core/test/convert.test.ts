import { describe, expect, it } from 'vitest';
import { adjustRate, convertMinor, rateText, rateWithin } from '../src/domain/currencies/convert.ts';

describe('convertMinor', () => {
  it('is exact at the extremes of exponents and size', () => {
    expect(convertMinor(1n, 'JPY', 'PLN', '0.0265')).toBe(3n); // ¥1 → 2.65 gr → 3 gr
    expect(convertMinor(1n, 'KWD', 'PLN', '13.0')).toBe(1n); // 0.001 KWD → 1.3 gr
    expect(convertMinor(-100n, 'EUR', 'KWD', '0.333')).toBe(-333n);
    expect(convertMinor(10n ** 13n, 'EUR', 'PLN', '4.2965')).toBe(42_965_000_000_000n);
    expect(convertMinor(123_456_789_012_345n, 'PLN', 'JPY', '37.123456789012345678')).toBe(45_831_427_722_100n);
  });

  it('rounds the exact midpoint away from zero, both signs, and never answers negative zero', () => {
    expect(convertMinor(1n, 'PLN', 'PLN', '0.5')).toBe(1n);
    expect(convertMinor(-1n, 'PLN', 'PLN', '0.5')).toBe(-1n);
    expect(convertMinor(-1n, 'PLN', 'PLN', '0.4')).toBe(0n);
    expect(Object.is(Number(convertMinor(-1n, 'PLN', 'PLN', '0.4')), -0)).toBe(false);
    expect(convertMinor(5n, 'PLN', 'JPY', '10')).toBe(1n); // 0.05 PLN × 10 = ¥0.5 → ¥1
  });

  it('applies a margin exactly and keeps enough digits in the rate it reports', () => {
    expect(rateText(adjustRate('4.3', '0.02'))).toBe('4.386000000');
    expect(convertMinor(-1_000n, 'EUR', 'PLN', adjustRate('4.3', '0.02'))).toBe(-4_386n);
    expect(() => convertMinor(1n, 'EUR', 'PLN', '1e3')).toThrow(/Not a decimal rate/);
  });
});

describe('rateWithin', () => {
  it('rounds half away from zero to a format’s digits (camt BaseOneRate: 11 in all, 10 after the point)', () => {
    const base = { totalDigits: 11, fractionDigits: 10 };
    expect(rateWithin('0.232558139535', base)).toBe('0.2325581395');
    expect(rateWithin('0.00000000005', base)).toBe('0.0000000001');
    expect(rateWithin('4.386000000', base)).toBe('4.386');
    expect(rateWithin('123456789.987654', base)).toBe('123456789.99');
    expect(rateWithin('13.05', base)).toBe('13.05');
  });
});
