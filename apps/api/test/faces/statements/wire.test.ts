/** The statement face's edge conversions: money at 0.01, 10^13 and zero (never "-0.00"), text cuts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal, oneLine, signedDecimal, truncate } from '../../../src/faces/statements/wire.ts';

describe('decimal and signedDecimal', () => {
  it('writes 0.01, 10^13 and zero exactly, with the format’s separator', () => {
    expect([decimal(1), decimal(-1), signedDecimal(-1), decimal(1, ',')]).toEqual(['0.01', '0.01', '-0.01', '0,01']);
    expect([decimal(10 ** 13), signedDecimal(-(10 ** 13)), decimal(10 ** 15, ',')]).toEqual([
      '100000000000.00',
      '-100000000000.00',
      '10000000000000,00',
    ]);
    expect([decimal(0), decimal(-0), signedDecimal(-0)]).toEqual(['0.00', '0.00', '0.00']);
    expect(() => decimal(0.5)).toThrow(RangeError);
  });

  it('round-trips every safe amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (minor) => {
        expect(Math.round(Number(signedDecimal(minor)) * 100)).toBe(minor);
        expect(signedDecimal(minor)).toMatch(/^-?\d+\.\d\d$/);
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
