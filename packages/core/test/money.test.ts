import { describe, expect, it } from 'vitest';
import { currencyExponent, supportedCurrencies } from '../src/domain/currencies/currencies.ts';
import { minorToDecimal } from '../src/domain/currencies/money.ts';

describe('currency exponents (from currency-codes, ISO 4217)', () => {
  it('gives JPY none, KWD three and the European currencies two', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    for (const code of ['PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF']) {
      expect(currencyExponent(code)).toBe(2);
    }
    expect(supportedCurrencies().map((c) => c.code)).toEqual([
      'PLN',
      'EUR',
      'USD',
      'GBP',
      'CHF',
      'CZK',
      'SEK',
      'NOK',
      'DKK',
      'HUF',
      'JPY',
      'KWD',
    ]);
  });

  it('refuses a currency outside the supported set', () => {
    expect(() => currencyExponent('BHD')).toThrow(/Unsupported currency BHD/);
  });
});

describe('minorToDecimal', () => {
  it.each([
    [1, 'JPY', '1'],
    [-1, 'JPY', '-1'],
    [1, 'KWD', '0.001'],
    [-1, 'KWD', '-0.001'],
    [1, 'PLN', '0.01'],
    [-5, 'EUR', '-0.05'],
    [123456, 'PLN', '1234.56'],
    [-1000, 'KWD', '-1.000'],
    [0, 'PLN', '0.00'],
    [-0, 'PLN', '0.00'],
    [0, 'JPY', '0'],
    [0, 'KWD', '0.000'],
    [10_000_000_000_000, 'PLN', '100000000000.00'],
    [-10_000_000_000_000, 'JPY', '-10000000000000'],
    [10_000_000_000_000n, 'KWD', '10000000000.000'],
    [-9_007_199_254_740_993n, 'KWD', '-9007199254740.993'],
  ])('%s minor units of %s → %s', (minor, currency, decimal) => {
    expect(minorToDecimal(minor, currency)).toBe(decimal);
  });

  it('writes the decimal mark it is given (MT940 uses a comma)', () => {
    expect(minorToDecimal(-123456, 'EUR', ',')).toBe('-1234,56');
    expect(minorToDecimal(7, 'KWD', ',')).toBe('0,007');
  });
});
