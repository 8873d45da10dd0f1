/** The face's one money conversion: signed balances, unsigned transaction amounts with their direction. */
import { describe, expect, it } from 'vitest';
import { amountOf, directedAmountOf } from './mapping.ts';

describe('Enable Banking money', () => {
  it('writes balances signed, in the currency’s places, exactly', () => {
    expect(amountOf(-1234, 'PLN')).toEqual({ currency: 'PLN', amount: '-12.34' });
    expect(amountOf(0, 'PLN')).toEqual({ currency: 'PLN', amount: '0.00' });
    expect(amountOf(7, 'JPY')).toEqual({ currency: 'JPY', amount: '7' });
    expect(amountOf(9_007_199_254_740_991, 'PLN').amount).toBe('90071992547409.91');
  });

  it('writes transaction amounts unsigned with credit_debit_indicator', () => {
    expect(directedAmountOf(-1, 'PLN')).toEqual({
      transaction_amount: { currency: 'PLN', amount: '0.01' },
      credit_debit_indicator: 'DBIT',
    });
    expect(directedAmountOf(5, 'KWD')).toEqual({
      transaction_amount: { currency: 'KWD', amount: '0.005' },
      credit_debit_indicator: 'CRDT',
    });
    expect(directedAmountOf(0, 'EUR').credit_debit_indicator).toBe('CRDT');
  });
});
