/** The statement face's edge conversions: money at 0.01, 10^13 and zero (never "-0.00"), text cuts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal, oneLine, signedDecimal, truncate } from '../../../src/faces/statements/mapping.ts';

describe('decimal and signedDecimal', () => {
  it('writes 0.01, 10^13 and zero exactly, with the format’s separator', () => {
    expect([decimal(1, 'PLN'), decimal(-1, 'PLN'), signedDecimal(-1, 'PLN'), decimal(1, 'PLN', ',')]).toEqual([
      '0.01',
      '0.01',
      '-0.01',
      '0,01',
    ]);
    expect([decimal(10 ** 13, 'PLN'), signedDecimal(-(10 ** 13), 'PLN'), decimal(10 ** 15, 'PLN', ',')]).toEqual([
      '100000000000.00',
      '-100000000000.00',
      '10000000000000,00',
    ]);
    expect([decimal(0, 'PLN'), decimal(-0, 'PLN'), signedDecimal(-0, 'PLN')]).toEqual(['0.00', '0.00', '0.00']);
    expect(() => decimal(0.5, 'PLN')).toThrow(RangeError);
  });

  it('writes the places of the currency: none for JPY (MT940 keeps its comma), three for KWD', () => {
    expect([decimal(1, 'JPY'), signedDecimal(-1, 'JPY'), decimal(1, 'JPY', ','), decimal(-0, 'JPY')]).toEqual([
      '1',
      '-1',
      '1,',
      '0',
    ]);
    expect([decimal(1, 'KWD'), signedDecimal(-1, 'KWD'), decimal(1, 'KWD', ','), signedDecimal(-0, 'KWD')]).toEqual([
      '0.001',
      '-0.001',
      '0,001',
      '0.000',
    ]);
    expect([signedDecimal(-(10 ** 13), 'JPY'), signedDecimal(10 ** 13, 'KWD'), signedDecimal(-12_34, 'EUR')]).toEqual([
      '-10000000000000',
      '10000000000.000',
      '-12.34',
    ]);
  });

  it('round-trips every safe amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (minor) => {
        expect(Math.round(Number(signedDecimal(minor, 'PLN')) * 100)).toBe(minor);
        expect(signedDecimal(minor, 'PLN')).toMatch(/^-?\d+\.\d\d$/);
      }),
    );
  });
});

describe('oneLine and truncate', () => {
  it('makes one line of any text and never cuts an emoji in half', () => {
    expect(oneLine(' a\r\nb\u0000\tc\u2028 ')).toBe('a b c');
    expect(truncate('🛒🛒🛒🛒', 3)).toBe('🛒🛒…');
    expect(truncate('abcdef', 5, true)).toBe('ab...');
    expect(truncate('abc', 3)).toBe('abc');
  });
});
