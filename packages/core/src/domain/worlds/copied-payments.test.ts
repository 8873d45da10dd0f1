import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../payments/create-payment.ts';
import { fingerprintInCopy, sessionAfterShift } from './copied-payments.ts';
import { idUnder, type PaymentToRemapRow } from './queries/forks.ts';

const MINUTE = 60_000;
const PREFIX = '019ad0c1a2b37c4d8e9f0a1b';
const PAYMENT_ID = '019ad0c1-0000-7000-8000-000000000001';

/** A payment waiting for Elixir, accepted on Tuesday 1 December 2026 at 08:59 Warsaw (CET): a minute before the 09:30 session's cut-off. */
const waiting: PaymentToRemapRow = {
  ord: 7,
  id: PAYMENT_ID,
  from_account_ord: 1,
  to_account_ord: null,
  from_account_id: '019ad0c1-0000-7000-8000-0000000000aa',
  to_account_id: null,
  counterparty_iban: 'PL61109010140000071219812874',
  counterparty_name: 'Jan Kowalski',
  amount: '12000',
  description: 'Rent',
  requested_execution_date: null,
  end_to_end_id: `SB${PAYMENT_ID.replaceAll('-', '')}`,
  scheme: 'elixir',
  status: 'ACTC',
  accepted_at: '2026-12-01T07:59:00.000Z',
  idempotency_key: 'rent',
  request_fingerprint: '',
};

describe('sessionAfterShift', () => {
  it('keeps the session when the shifted acceptance still meets its cut-off', () => {
    expect(sessionAfterShift(waiting, 0)).toBe('2026-12-01T08:30:00.000Z');
    expect(sessionAfterShift(waiting, 30_000)).toBe('2026-12-01T08:30:00.000Z');
  });

  it('takes the next session when the shift carries the acceptance past the cut-off', () => {
    expect(sessionAfterShift(waiting, 2 * MINUTE)).toBe('2026-12-01T12:30:00.000Z');
    // Friday evening + a weekend: Monday's first session.
    expect(sessionAfterShift(waiting, 3 * 24 * 60 * MINUTE + 9 * 60 * MINUTE)).toBe('2026-12-07T08:30:00.000Z');
  });

  it('never before its requested execution day', () => {
    expect(sessionAfterShift({ ...waiting, requested_execution_date: '2026-12-03' }, 0)).toBe('2026-12-03T08:30:00.000Z');
  });
});

describe('fingerprintInCopy', () => {
  const asked = {
    to: { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' },
    amount: 12000,
    description: 'Rent',
    requestedExecutionDate: undefined,
  };

  it('the request again with the copy’s account, its endToEndId omitted', () => {
    const row = { ...waiting, request_fingerprint: requestFingerprint({ ...asked, fromAccountId: waiting.from_account_id }) };
    expect(fingerprintInCopy(row, PREFIX)).toBe(requestFingerprint({ ...asked, fromAccountId: idUnder(PREFIX, 1) }));
  });

  it('with a given endToEndId, and a transfer’s destination account mapped too', () => {
    const transfer = {
      ...waiting,
      to_account_ord: 2,
      to_account_id: '019ad0c1-0000-7000-8000-0000000000bb',
      counterparty_iban: null,
      counterparty_name: null,
      end_to_end_id: 'E2E-1',
    };
    const request = { ...asked, to: { accountId: transfer.to_account_id }, endToEndId: 'E2E-1' };
    const row = { ...transfer, request_fingerprint: requestFingerprint({ ...request, fromAccountId: transfer.from_account_id }) };
    expect(fingerprintInCopy(row, PREFIX)).toBe(
      requestFingerprint({ ...request, fromAccountId: idUnder(PREFIX, 1), to: { accountId: idUnder(PREFIX, 2) } }),
    );
  });

  it('null when the snapshot’s fingerprint is not what its fields give (the copy keeps it)', () => {
    expect(fingerprintInCopy({ ...waiting, request_fingerprint: 'something-else' }, PREFIX)).toBeNull();
  });
});
