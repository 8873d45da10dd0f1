/** The face's conversions at their edges: money of every sign and size, exact to the grosz, never `-0.00`; times and ids. */
import type { Transaction } from '@sandbank/schemas';
import { describe, expect, it } from 'vitest';
import { formatMoney, toSimplefinTransaction } from './mapping.ts';

describe('money', () => {
  it('has exactly two decimals, at one grosz and at 10^15 minor units, in every input type', () => {
    expect(formatMoney(0, 'PLN')).toBe('0.00');
    expect(formatMoney(-0, 'PLN')).toBe('0.00');
    expect(formatMoney(5, 'PLN')).toBe('0.05');
    expect(formatMoney(-5, 'PLN')).toBe('-0.05');
    expect(formatMoney(-100, 'PLN')).toBe('-1.00');
    expect(formatMoney(1_234_50, 'PLN')).toBe('1234.50');
    expect(formatMoney('1000000000000', 'PLN')).toBe('10000000000.00');
    expect(formatMoney(10n ** 15n + 1n, 'PLN')).toBe('10000000000000.01');
    expect(formatMoney(-(10n ** 15n), 'PLN')).toBe('-10000000000000.00');
  });
});

describe('money in other currencies', () => {
  it('has the places of the currency: none for JPY, three for KWD', () => {
    expect(formatMoney(1, 'JPY')).toBe('1');
    expect(formatMoney(-1, 'JPY')).toBe('-1');
    expect(formatMoney(1, 'KWD')).toBe('0.001');
    expect(formatMoney(-1, 'KWD')).toBe('-0.001');
    expect(formatMoney(10n ** 13n, 'JPY')).toBe('10000000000000');
    expect(formatMoney(-(10n ** 13n), 'KWD')).toBe('-10000000000.000');
    expect(formatMoney(-0, 'JPY')).toBe('0');
    expect(formatMoney(-5, 'EUR')).toBe('-0.05');
  });
});

describe('a transaction', () => {
  const base = {
    id: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d',
    amount: -2_350,
    currency: 'PLN',
    description: 'ŻABKA Z1',
    merchant: 'Żabka',
    date: '2026-11-20T10:15:30.999Z',
    postedAt: '2026-11-21T00:00:01.000Z',
    status: 'posted',
  } as Transaction;

  it('keeps its id, posts in Unix seconds, and is dated by its date', () => {
    expect(toSimplefinTransaction(base)).toEqual({
      id: base.id,
      posted: Date.UTC(2026, 10, 21, 0, 0, 1) / 1000,
      amount: '-23.50',
      description: 'ŻABKA Z1',
      payee: 'Żabka',
      memo: '',
      transacted_at: Math.floor(Date.UTC(2026, 10, 20, 10, 15, 30) / 1000),
      pending: false,
    });
  });

  it('is posted 0 while pending, and its payee is the description without a merchant', () => {
    const pending = toSimplefinTransaction({ ...base, status: 'pending', postedAt: null, merchant: null } as Transaction);
    expect(pending).toMatchObject({ id: base.id, posted: 0, pending: true, payee: 'ŻABKA Z1' });
  });
});
