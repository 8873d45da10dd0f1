/**
 * What a copied payment cannot take from its snapshot as it is (copy-world.ts copies the rest in SQL):
 *
 * - A payment waiting for its clearing session (ACTC) is due at a session, an instant of the scheme's
 *   calendar that its step looks up again (payment-steps.ts): moved by the copy's shift it would fall
 *   between sessions. It joins the session it would have joined had it been accepted at its shifted
 *   acceptance time, on its requested execution date or later (calendar.ts `sessionFor`). A shift of a few
 *   seconds keeps its session, unless it met the cut-off by less than that.
 * - A payment kept under an Idempotency-Key answers a repeat of its request in the copy too: the
 *   request's fingerprint names the source account (and the destination account of a transfer), so it is
 *   computed again with the copy's ids. Only when the snapshot's fingerprint is the one its stored fields
 *   give (an endToEndId it was given or the default one); otherwise it keeps the old one, and a repeat
 *   answers IDEMPOTENCY_CONFLICT, never a second payment.
 */
import type { EntityManager } from '@sandbank/db';
import { sessionFor } from '../payments/calendar.ts';
import { type PaymentRequest, requestFingerprint } from '../payments/create-payment.ts';
import { type CopyTarget, idUnder, type PaymentRemap, type PaymentToRemapRow, selectPaymentsToRemap } from './queries/forks.ts';

/** What each of the snapshot's payments that needs it takes in the copy instead of its snapshot's value. */
export async function paymentRemaps(tx: EntityManager, target: CopyTarget): Promise<PaymentRemap[]> {
  const rows = await selectPaymentsToRemap(tx, target.snapshotId);
  return rows.map((row) => ({
    ord: row.ord,
    due_at: row.status === 'ACTC' ? sessionAfterShift(row, target.shiftMs) : null,
    request_fingerprint: row.idempotency_key === null ? null : fingerprintInCopy(row, target.prefix),
  }));
}

/** The session a waiting payment joins in a copy whose instants move by `shiftMs` (its ISO time), or null. */
export function sessionAfterShift(row: PaymentToRemapRow, shiftMs: number): string | null {
  if (row.accepted_at === null) return null;
  const acceptedAt = new Date(new Date(row.accepted_at).getTime() + Math.round(shiftMs));
  const scheme = row.scheme === 'elixir' ? 'elixir' : 'sepa';
  return sessionFor(scheme, acceptedAt, row.requested_execution_date).sessionAt.toISOString();
}

/** The request as the payment's fields say, with the given accounts' ids. */
function requestOf(
  row: PaymentToRemapRow,
  ids: { from: string; to: string | null },
  endToEndId: string | undefined,
): PaymentRequest {
  return {
    fromAccountId: ids.from,
    to: ids.to !== null ? { accountId: ids.to } : { iban: row.counterparty_iban ?? '', name: row.counterparty_name ?? '' },
    amount: Number(row.amount),
    description: row.description,
    requestedExecutionDate: row.requested_execution_date ?? undefined,
    endToEndId,
  };
}

/** The fingerprint of the payment's request in a copy under `prefix`, or null when its snapshot's is not the one its fields give. */
export function fingerprintInCopy(row: PaymentToRemapRow, prefix: string): string | null {
  // Which request made it: its endToEndId omitted (the default `SB<id>` was written) or given.
  const defaulted = row.end_to_end_id === `SB${row.id.replaceAll('-', '')}`;
  const candidates: (string | undefined)[] = defaulted ? [undefined, row.end_to_end_id] : [row.end_to_end_id];
  const original = { from: row.from_account_id, to: row.to_account_id };
  const made = candidates.findIndex((id) => requestFingerprint(requestOf(row, original, id)) === row.request_fingerprint);
  if (made < 0) return null;
  const copy = {
    from: idUnder(prefix, row.from_account_ord),
    to: row.to_account_ord === null ? null : idUnder(prefix, row.to_account_ord),
  };
  return requestFingerprint(requestOf(row, copy, candidates[made]));
}
