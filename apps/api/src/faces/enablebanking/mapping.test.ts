/** The face's one money conversion: signed balances, unsigned transaction amounts with their direction, payment amounts in. */
import { describe, expect, it } from 'vitest';
import { EnablebankingError } from './errors.ts';
import { amountOf, directedAmountOf, toPaymentStart } from './mapping.ts';
import { CreatePaymentRequest } from './wire.ts';

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

const paymentBody = (currency: string, amount: string, payment_type = 'SEPA') =>
  CreatePaymentRequest.parse({
    payment_type,
    payment_request: {
      credit_transfer_transaction: [
        {
          instructed_amount: { currency, amount },
          beneficiary: {
            creditor: { name: 'Anna' },
            creditor_account: { identification: 'DE89370400440532013000', scheme_name: 'IBAN' },
          },
        },
      ],
    },
    aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
    state: 's',
    redirect_url: 'https://app.example/cb',
  });

const refusedAmount = (currency: string, amount: string) => {
  try {
    toPaymentStart(paymentBody(currency, amount));
    return 'accepted';
  } catch (error) {
    return error instanceof EnablebankingError ? `${error.status} ${error.error}` : String(error);
  }
};

describe('Enable Banking payment amounts', () => {
  it('reads instructed_amount exactly in the currency’s minor unit (JPY 0 places, KWD 3)', () => {
    expect(toPaymentStart(paymentBody('EUR', '12.34')).amount).toBe(1234n);
    expect(toPaymentStart(paymentBody('EUR', '12.3')).amount).toBe(1230n);
    expect(toPaymentStart(paymentBody('EUR', '12.340')).amount).toBe(1234n);
    expect(toPaymentStart(paymentBody('EUR', '90071992547409.93')).amount).toBe(9_007_199_254_740_993n);
    // The face reads them; the domain then refuses what a SEPA payment cannot carry (currency).
    expect(toPaymentStart(paymentBody('JPY', '150')).amount).toBe(150n);
    expect(toPaymentStart(paymentBody('KWD', '0.005')).amount).toBe(5n);
    expect(toPaymentStart(paymentBody('PLN', '100', 'DOMESTIC'))).toMatchObject({ amount: 10000n, scheme: 'elixir' });
  });

  it('refuses amounts a currency cannot carry, never rounding them', () => {
    expect(refusedAmount('EUR', '12.345')).toBe('422 WRONG_REQUEST_PARAMETERS');
    expect(refusedAmount('JPY', '1.5')).toBe('422 WRONG_REQUEST_PARAMETERS');
    expect(refusedAmount('KWD', '0.0005')).toBe('422 WRONG_REQUEST_PARAMETERS');
    expect(refusedAmount('EUR', '0.00')).toBe('422 WRONG_REQUEST_PARAMETERS');
    expect(refusedAmount('XYZ', '1')).toBe('422 WRONG_REQUEST_PARAMETERS');
    expect(() => paymentBody('EUR', '-1')).toThrow();
    expect(() => paymentBody('EUR', '1e3')).toThrow();
  });
});
