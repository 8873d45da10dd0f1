/**
 * The pending side of a statement (camt.052's `PDNG` entries): transactions still pending now whose
 * date falls in the period's local days. They change no booked balance, so they stay out of the
 * statement's one balance statement.
 */
import type { EntityManager } from '@sandbank/db';
import { conversionOf, type EntryConversion } from './entry-conversion.ts';
import { type PendingRow, selectPendingRows } from './queries.ts';

export interface PendingEntry {
  id: string;
  externalTxnId: string;
  amount: number;
  /** The local day of the transaction's `date`. */
  valueDate: string;
  description: string;
  merchant: string | null;
  category: string | null;
  /** A payment's other side and EndToEndId; null on other transactions. */
  counterparty: { name: string | null; iban: string | null } | null;
  endToEndId: string | null;
  /** A card payment in another currency: what the merchant charged and the rate; null for any other entry. */
  conversion: EntryConversion | null;
}

/** A payment's other side as a statement entry shows it, or null. */
export const partyOf = (row: { counterparty_name: string | null; counterparty_iban: string | null }) =>
  row.counterparty_name === null && row.counterparty_iban === null
    ? null
    : { name: row.counterparty_name, iban: row.counterparty_iban };

export const toPendingEntry = (row: PendingRow): PendingEntry => ({
  id: row.id,
  externalTxnId: row.external_txn_id,
  amount: Number(row.amount),
  valueDate: row.value_date,
  description: row.description,
  merchant: row.merchant,
  category: row.category,
  counterparty: partyOf(row),
  endToEndId: row.end_to_end_id,
  conversion: conversionOf(row),
});

export async function readPendingEntries(
  em: EntityManager,
  { accountId, from, to }: { accountId: string; from: string; to: string },
): Promise<PendingEntry[]> {
  const rows = await selectPendingRows(em, { accountId, from, to });
  return rows.map(toPendingEntry);
}
