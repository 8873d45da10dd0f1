/** A payment's status story and what can be done to it, read from its fields (src/lib/payments.ts). */
import { describe, expect, it } from 'vitest';
import { actionsOf, stepsOf } from '../src/lib/payments.ts';
import type { Payment } from '../src/lib/types.ts';

const base: Payment = {
  id: '01900000-0000-7000-8000-000000000001',
  fromAccountId: '01900000-0000-7000-8000-000000000002',
  to: { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' },
  amount: 120_00,
  currency: 'PLN',
  scheme: 'elixir',
  status: 'ACTC',
  statusReason: null,
  endToEndId: 'E2E-1',
  description: 'Rent',
  requestedExecutionDate: null,
  acceptedAt: '2026-11-27T10:00:00.000Z',
  settledAt: null,
  returned: null,
  transactionIds: [],
  createdAt: '2026-11-27T10:00:00.000Z',
};
const codes = (payment: Payment) => stepsOf(payment).map((step) => `${step.code}:${step.state}`);

describe('a payment’s steps', () => {
  it('lists the steps ahead of one waiting for its session, and lets it be cancelled or rejected', () => {
    expect(codes(base)).toEqual(['RCVD:done', 'ACTC:done', 'ACSP:next', 'ACSC:next']);
    expect(actionsOf(base)).toEqual({ cancel: true, reject: true, return: false });
  });

  it('settles, then comes back with its reason; only a settled payment to an IBAN can be returned', () => {
    const settled: Payment = { ...base, status: 'ACSC', settledAt: '2026-11-27T13:30:00.000Z' };
    expect(codes(settled)).toEqual(['RCVD:done', 'ACTC:done', 'ACSP:done', 'ACSC:done']);
    expect(stepsOf(settled)[3]?.at).toBe('2026-11-27T13:30:00.000Z');
    expect(actionsOf(settled)).toEqual({ cancel: false, reject: false, return: true });
    const reason = { code: 'MD07', message: 'End customer deceased' };
    const returned: Payment = { ...settled, returned: { reason, at: '2026-11-28T09:00:00.000Z' } };
    expect(stepsOf(returned).at(-1)).toMatchObject({ code: 'RETURNED', state: 'done', reason });
    expect(actionsOf(returned).return).toBe(false);
    const transfer: Payment = { ...settled, scheme: 'internal', to: { accountId: base.fromAccountId } };
    expect(codes(transfer)).toEqual(['RCVD:done', 'ACTC:done', 'ACSC:done']);
    expect(actionsOf(transfer).return).toBe(false);
  });

  it('ends in RJCT with its reason (at validation: never accepted) or in CANC', () => {
    const reason = { code: 'AM04', message: 'Insufficient funds' };
    const refused: Payment = { ...base, status: 'RJCT', statusReason: reason, acceptedAt: null };
    expect(codes(refused)).toEqual(['RCVD:done', 'RJCT:done']);
    expect(stepsOf(refused)[1]?.reason).toEqual(reason);
    expect(actionsOf(refused)).toEqual({ cancel: false, reject: false, return: false });
    expect(codes({ ...base, status: 'CANC' })).toEqual(['RCVD:done', 'ACTC:done', 'CANC:done']);
  });
});
