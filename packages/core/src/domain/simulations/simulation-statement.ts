/**
 * The hot path as ONE autocommitted SQL statement (data-modifying CTEs): lock the account if the
 * new balance and hold are allowed, insert the transaction, apply the amount (posted) or the hold
 * (pending debit), write the event with the balances after it — all or none.
 *
 * The rule (docs/concepts/lifecycle.md): a new debit, pending or posted, needs available = balance − held ≥ |amount|;
 * a posted amount moves the balance; a pending debit raises the hold; a pending credit moves
 * nothing until it posts. With `Δbalance` and `Δheld` from the request, the account qualifies when
 * balance + Δbalance ≤ 10^15 and balance + Δbalance − (held + Δheld) ≥ 0.
 *
 * Why it is correct under READ COMMITTED:
 * - `for no key update` locks the account row. A request that waits for that lock re-reads the
 *   newest row version and re-checks the WHERE (status, owner, bounds), so the check and the
 *   update see the same balance; no read-modify-write happens in JavaScript.
 * - The account lock serialises every simulation of that account, so when the insert runs, any
 *   earlier insert of the same (account_id, external_txn_id) has committed. `on conflict do
 *   nothing` checks the unique index against committed rows (not the statement's snapshot) and
 *   yields no row; the update and the event insert read from `inserted`, so they do nothing too.
 *   Two racing identical requests therefore make exactly one row and one balance change.
 * - The UPDATE finds the row by the statement's snapshot; if it changed since, PostgreSQL follows
 *   it to the newest (locked) version and adds the amount to that balance.
 * - CHECK (0 ≤ balance ≤ 10^15) and the unique index stay as the database's last word.
 *
 * A statement that inserts nothing returns no row; the caller then finds out why.
 */
import type { EntityManager } from '@sandbank/db';
import type { TransactionRow } from '../../mappers/transaction.ts';
import { type ConversionGuard, insertSimulatedBooking, type StoredTransaction, selectSimulationProbe } from './queries.ts';

export const MAX_BALANCE = 1_000_000_000_000_000;
export { CLOCK_SKEW_MS } from './queries.ts';

/** The transaction exactly as it is to be stored (and as it appears in the event). */
export interface BookingRow extends Omit<TransactionRow, 'date' | 'posted_at'> {
  /** Null: the world's now (or `at`), decided inside the statement. */
  date: Date | null;
  /** Written by the statement: the date when posted, else null. */
  posted_at: null;
  settle_at: Date | null;
  expire_at: Date | null;
  /** What the booking request asked for (`requestFingerprint`), compared when it is repeated. */
  request_fingerprint: string;
}

export interface SimulationStatementParams {
  userId: string;
  row: BookingRow;
  /** The currency the request named; null: the account's (the stored row's and the event's currency are the account's). */
  currency: string | null;
  eventId: string;
  /** The transaction as the event shows it (its `date` and `postedAt` are filled in by the statement). */
  eventTransaction: Record<string, unknown>;
  /** The instant the booking happens at in the world; defaults to the world's now. */
  at?: Date | undefined;
  /** A converted booking's assumptions about the account and the world, checked by the statement (queries.ts). */
  guard?: ConversionGuard | undefined;
}

export interface Written {
  row: TransactionRow;
  balance: number;
  heldAmount: number;
}

/** How a booking moves the account: the amount when posted, the hold for a pending debit. */
export function bookingDeltas(status: 'pending' | 'posted', amount: number): { balance: number; held: number } {
  if (status === 'posted') return { balance: amount, held: 0 };
  return { balance: 0, held: amount < 0 ? -amount : 0 };
}

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** Runs the statement; returns the stored row and the balances after it, or null if nothing was written. */
export async function runSimulationStatement(
  em: EntityManager,
  { userId, row, currency, eventId, eventTransaction, at, guard }: SimulationStatementParams,
): Promise<Written | null> {
  const amount = Number(row.amount);
  const delta = bookingDeltas(row.status === 'pending' ? 'pending' : 'posted', amount);
  const date = isoOrNull(row.date);
  const result = await insertSimulatedBooking(em, {
    at: isoOrNull(at ?? null),
    userId,
    accountId: row.account_id,
    deltaBalance: delta.balance,
    deltaHeld: delta.held,
    maxBalance: MAX_BALANCE,
    date,
    id: row.id,
    externalTxnId: row.external_txn_id,
    amount,
    currency,
    description: row.description,
    raw: JSON.stringify(row.raw),
    status: row.status,
    merchant: row.merchant,
    category: row.category,
    settleAt: isoOrNull(row.settle_at),
    expireAt: isoOrNull(row.expire_at),
    requestFingerprint: row.request_fingerprint,
    originalAmount: row.original_amount === undefined || row.original_amount === null ? null : Number(row.original_amount),
    originalCurrency: row.original_currency ?? null,
    exchangeRate: row.exchange_rate ?? null,
    eventId,
    eventTransaction: JSON.stringify(eventTransaction),
    guard,
  });
  if (!result) return null;
  const { balance, held_amount, ...stored } = result;
  return { row: stored, balance: Number(balance), heldAmount: Number(held_amount) };
}

export type { StoredTransaction };

export interface SimulationProbe {
  accountStatus: 'open' | 'closed';
  accountCurrency: string;
  balance: number;
  heldAmount: number;
  /** The transaction already stored under this externalTxnId, if any. */
  existing: StoredTransaction | null;
}

/** The failure path only: the account as the caller may see it, and any earlier transaction with that id. */
export async function probeSimulation(
  em: EntityManager,
  { userId, accountId, externalTxnId }: { userId: string; accountId: string; externalTxnId: string },
): Promise<SimulationProbe | null> {
  const found = await selectSimulationProbe(em, { userId, accountId, externalTxnId });
  if (!found) return null;
  const { account_status, account_currency, balance, held_amount, ...transaction } = found;
  return {
    accountStatus: account_status,
    accountCurrency: account_currency,
    balance: Number(balance),
    heldAmount: Number(held_amount),
    existing: transaction.id ? transaction : null,
  };
}
