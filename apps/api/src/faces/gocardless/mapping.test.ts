/** The face's conversions at their edges: money at 0.01 and 10^13, never "-0.00"; Warsaw dates across midnight and DST; the quirks. */
import { describe, expect, it } from 'vitest';
import { findInstitution } from './institutions.ts';
import { addDays, amountOf, localDate, toTransactionsWire } from './mapping.ts';

describe('money', () => {
  it('is exact at one grosz and at 10^13 minor units, with its sign', () => {
    expect(amountOf(1, 'PLN')).toBe('0.01');
    expect(amountOf(-1, 'PLN')).toBe('-0.01');
    expect(amountOf(-12_34, 'PLN')).toBe('-12.34');
    expect(amountOf(10 ** 13, 'PLN')).toBe('100000000000.00');
    expect(amountOf(-(10 ** 13) - 99, 'PLN')).toBe('-100000000000.99');
    expect(amountOf(10 ** 15, 'PLN')).toBe('10000000000000.00');
  });

  it('never answers "-0.00" and refuses what is not a safe integer', () => {
    expect(amountOf(0, 'PLN')).toBe('0.00');
    expect(amountOf(-0, 'PLN')).toBe('0.00');
    expect(() => amountOf(0.5, 'PLN')).toThrow(RangeError);
    expect(() => amountOf(2 ** 53, 'PLN')).toThrow(RangeError);
  });
});

describe('money in other currencies', () => {
  it('has the places of the currency: none for JPY, three for KWD, two for EUR', () => {
    expect(amountOf(1, 'JPY')).toBe('1');
    expect(amountOf(-1, 'JPY')).toBe('-1');
    expect(amountOf(1, 'KWD')).toBe('0.001');
    expect(amountOf(-1, 'KWD')).toBe('-0.001');
    expect(amountOf(-12_34, 'EUR')).toBe('-12.34');
    expect(amountOf(10 ** 13, 'JPY')).toBe('10000000000000');
    expect(amountOf(-(10 ** 13), 'KWD')).toBe('-10000000000.000');
    expect(amountOf(0, 'JPY')).toBe('0');
    expect(amountOf(-0, 'KWD')).toBe('0.000');
  });
});

describe('dates', () => {
  it('are Warsaw dates of the instant, across midnight and both DST changes', () => {
    expect(localDate(new Date('2026-11-24T22:59:59.999Z'))).toBe('2026-11-24');
    expect(localDate(new Date('2026-11-24T23:00:00.000Z'))).toBe('2026-11-25');
    expect(localDate(new Date('2026-07-01T21:59:59.999Z'))).toBe('2026-07-01');
    expect(localDate(new Date('2026-07-01T22:00:00.000Z'))).toBe('2026-07-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('quirks', () => {
  const account = { id: 'acc', currency: 'PLN' } as Parameters<typeof toTransactionsWire>[0];
  const entry = {
    id: 'tx-1',
    externalTxnId: 'e',
    amount: -25_00,
    bookingDate: '2026-11-25',
    valueDate: '2026-11-23',
    postedAt: new Date('2026-11-25T08:00:00Z'),
    description: 'Zakupy',
    merchant: 'Żabka',
    category: 'groceries',
    reversalOf: null,
    counterparty: null,
    endToEndId: null,
    balanceAfter: 75_00,
    conversion: null,
  };
  const pending = {
    id: 'tx-2',
    externalTxnId: 'f',
    amount: 3_00,
    valueDate: '2026-11-25',
    description: 'Zwrot',
    merchant: 'Jan',
    category: null,
    counterparty: null,
    endToEndId: null,
    conversion: null,
  };
  const view = (id: string) => toTransactionsWire(account, findInstitution(id)?.quirks ?? {}, [entry], [pending]).transactions;

  it('leave the sandbox institution alone', () => {
    const {
      booked,
      pending: [waiting],
    } = view('SANDBOXFINANCE_SFIN0000');
    expect(booked[0]).toMatchObject({
      transactionId: 'tx-1',
      bookingDate: '2026-11-25',
      valueDate: '2026-11-23',
      creditorName: 'Żabka',
    });
    expect(waiting).toMatchObject({ transactionId: 'tx-2', debtorName: 'Jan', remittanceInformationUnstructured: 'Zwrot' });
  });

  it('swap booking and value dates of booked transactions', () => {
    expect(view('SANDBANK_DATY_SNDBPLP1').booked[0]).toMatchObject({ bookingDate: '2026-11-23', valueDate: '2026-11-25' });
  });

  it('prefix ids and drop them on pending transactions', () => {
    const {
      booked,
      pending: [waiting],
    } = view('SANDBANK_PREFIKS_SNDBPLP2');
    expect(booked[0]?.transactionId).toBe('PL-TRX-tx-1');
    expect(waiting).not.toHaveProperty('transactionId');
    expect(waiting?.internalTransactionId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('show a payment’s other side: creditor name and account of money out, debtor of money in, the EndToEndId', () => {
    const paid = { ...entry, counterparty: { name: 'Jan Kowalski', iban: 'PL61109010140000071219812874' }, endToEndId: 'E2E-1' };
    const received = { ...pending, counterparty: { name: 'ACME', iban: 'DE89370400440532013000' }, endToEndId: 'E2E-2' };
    const wire = toTransactionsWire(account, {}, [paid], [received]).transactions;
    expect(wire.booked[0]).toMatchObject({
      creditorName: 'Jan Kowalski',
      creditorAccount: { iban: 'PL61109010140000071219812874' },
      endToEndId: 'E2E-1',
    });
    expect(wire.pending[0]).toMatchObject({
      debtorName: 'ACME',
      debtorAccount: { iban: 'DE89370400440532013000' },
      endToEndId: 'E2E-2',
    });
    const quirky = toTransactionsWire(account, findInstitution('SANDBANK_TYTUL_SNDBPLP3')?.quirks ?? {}, [paid], []).transactions;
    expect(quirky.booked[0]).not.toHaveProperty('creditorAccount');
  });

  it('move the counterparty into the remittance text', () => {
    const {
      booked,
      pending: [waiting],
    } = view('SANDBANK_TYTUL_SNDBPLP3');
    expect(booked[0]).not.toHaveProperty('creditorName');
    expect(booked[0]?.remittanceInformationUnstructured).toBe('ODBIORCA: Żabka; TYTUŁ: Zakupy');
    expect(waiting?.remittanceInformationUnstructured).toBe('NADAWCA: Jan; TYTUŁ: Zwrot');
  });

  it('give the bank’s dated ids: the booking day and the entry’s place in it, counted in posting order', () => {
    const second = { ...entry, id: 'tx-3', postedAt: new Date('2026-11-25T09:00:00Z') };
    const nextDay = { ...entry, id: 'tx-4', bookingDate: '2026-11-26', postedAt: new Date('2026-11-26T08:00:00Z') };
    const ids = (id: string) =>
      toTransactionsWire(account, findInstitution(id)?.quirks ?? {}, [entry, second, nextDay], [pending]).transactions;
    expect(ids('MBANK_RETAIL_BREXPLPW').booked.map((t) => t.transactionId)).toEqual([
      '202611260001',
      '202611250002',
      '202611250001',
    ]);
    expect(ids('ING_PL_INGBPLPW').booked.map((t) => t.transactionId)).toEqual([
      'D202611260000001',
      'D202611250000002',
      'D202611250000001',
    ]);
    expect(ids('MBANK_RETAIL_BREXPLPW').pending[0]).not.toHaveProperty('transactionId');
  });

  it('leave out the balance after each entry, or give the remittance as an array, where the bank does', () => {
    expect(view('MBANK_RETAIL_BREXPLPW').booked[0]).not.toHaveProperty('balanceAfterTransaction');
    const revolut = view('REVOLUT_REVOLT21');
    expect(revolut.booked[0]).toMatchObject({ remittanceInformationUnstructuredArray: ['Zakupy'] });
    expect(revolut.booked[0]).not.toHaveProperty('remittanceInformationUnstructured');
    expect(revolut.pending[0]).toMatchObject({ remittanceInformationUnstructuredArray: ['Zwrot'] });
  });

  it('answer a bank without quirks byte for byte as before', () => {
    const plain = JSON.stringify(view('SANDBOXFINANCE_SFIN0000'));
    expect(JSON.stringify(view('PKO_BPKOPLPW'))).toBe(plain);
    expect(Object.keys(view('SANDBOXFINANCE_SFIN0000').booked[0] ?? {})).toEqual([
      'transactionId',
      'internalTransactionId',
      'transactionAmount',
      'creditorName',
      'remittanceInformationUnstructured',
      'proprietaryBankTransactionCode',
      'bookingDate',
      'valueDate',
      'bookingDateTime',
      'balanceAfterTransaction',
    ]);
  });
});
