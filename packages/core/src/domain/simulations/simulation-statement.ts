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
import { type EntityManager, executeHot } from '@sandbank/db';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export const MAX_BALANCE = 1_000_000_000_000_000;
/** How far in the future a `date` may lie, to forgive the caller's clock. */
export const CLOCK_SKEW_MS = 60_000;

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SIMULATE = `
with clock as (
  select coalesce(?::timestamptz, ${WORLD_NOW_SQL}) as now from users u where u.id = ?
), account as (
  select a.id, a.user_id, clock.now from accounts a, clock
  where a.id = ? and a.user_id = ? and a.status = 'open'
    and a.balance + ? <= ? and a.balance + ? - a.held_amount - ? >= 0
    and coalesce(?::timestamptz, clock.now) <= clock.now + interval '${CLOCK_SKEW_MS} milliseconds'
  for no key update of a
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw,
                            status, posted_at, merchant, category, settle_at, expire_at, request_fingerprint, created_at)
  select ?, account.id, account.user_id, ?, ?, ?, coalesce(?::timestamptz, account.now), ?, ?::jsonb,
         ?, case when ? = 'posted' then coalesce(?::timestamptz, account.now) end, ?, ?, ?::timestamptz, ?::timestamptz,
         ?, account.now
  from account
  on conflict (account_id, external_txn_id) do nothing
  returning ${TRANSACTION_COLUMNS}
), applied as (
  update accounts set balance = accounts.balance + ?, held_amount = accounts.held_amount + ?,
                      transaction_count = accounts.transaction_count + 1
  from inserted where accounts.id = inserted.account_id
  returning accounts.balance, accounts.held_amount
), event as (
  insert into events (id, type, user_id, payload, created_at)
  select ?, 'transaction.created', account.user_id, jsonb_build_object(
           'transaction', ?::jsonb || jsonb_build_object('date', ${ISO('inserted.date')}, 'postedAt', ${ISO('inserted.posted_at')}),
           'balances', jsonb_build_object('balance', applied.balance, 'availableBalance', applied.balance - applied.held_amount)),
         account.now
  from inserted, account, applied
)
select inserted.*, applied.balance, applied.held_amount from inserted, applied`;

const SIMULATE_STATEMENT = { name: 'sandbank_simulate_v1', sql: SIMULATE };

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
  eventId: string;
  /** The transaction as the event shows it (its `date` and `postedAt` are filled in by the statement). */
  eventTransaction: Record<string, unknown>;
  /** The instant the booking happens at in the world; defaults to the world's now. */
  at?: Date | undefined;
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
  { userId, row, eventId, eventTransaction, at }: SimulationStatementParams,
): Promise<Written | null> {
  const amount = Number(row.amount);
  const delta = bookingDeltas(row.status === 'pending' ? 'pending' : 'posted', amount);
  const date = isoOrNull(row.date);
  const [result] = await executeHot<TransactionRow & { balance: string | number; held_amount: string | number }>(
    em,
    SIMULATE_STATEMENT,
    [
      isoOrNull(at ?? null),
      userId,
      row.account_id,
      userId,
      delta.balance,
      MAX_BALANCE,
      delta.balance,
      delta.held,
      date,
      row.id,
      row.external_txn_id,
      amount,
      row.currency,
      date,
      row.description,
      JSON.stringify(row.raw),
      row.status,
      row.status,
      date,
      row.merchant,
      row.category,
      isoOrNull(row.settle_at),
      isoOrNull(row.expire_at),
      row.request_fingerprint,
      delta.balance,
      delta.held,
      eventId,
      JSON.stringify(eventTransaction),
    ],
  );
  if (!result) return null;
  const { balance, held_amount, ...stored } = result;
  return { row: stored, balance: Number(balance), heldAmount: Number(held_amount) };
}

const PROBE = `
select a.status as account_status, a.balance, a.held_amount, ${TRANSACTION_COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ')}, t.settle_at, t.expire_at, t.request_fingerprint
from accounts a left join transactions t on t.account_id = a.id and t.external_txn_id = ?
where a.id = ? and a.user_id = ?`;

/** A stored transaction with the due times and the request it was booked with (compared when a request repeats). */
export type StoredTransaction = TransactionRow & {
  settle_at: Date | string | null;
  expire_at: Date | string | null;
  request_fingerprint: string | null;
};

export interface SimulationProbe {
  accountStatus: 'open' | 'closed';
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
  const [found] = await em.execute<
    (StoredTransaction & { account_status: 'open' | 'closed'; balance: string; held_amount: string })[]
  >(PROBE, [externalTxnId, accountId, userId]);
  if (!found) return null;
  const { account_status, balance, held_amount, ...transaction } = found;
  return {
    accountStatus: account_status,
    balance: Number(balance),
    heldAmount: Number(held_amount),
    existing: transaction.id ? transaction : null,
  };
}
