/**
 * The hot path as ONE autocommitted SQL statement (data-modifying CTEs): lock the account if the
 * new balance is allowed, insert the transaction, apply the amount, write the event — all or none.
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

export const MAX_BALANCE = 1_000_000_000_000_000;

const SIMULATE = `
with account as (
  select id, user_id from accounts
  where id = ? and user_id = ? and status = 'open' and balance + ? between 0 and ?
  for no key update
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw)
  select ?, account.id, account.user_id, ?, ?, ?, ?::timestamptz, ?, ?::jsonb from account
  on conflict (account_id, external_txn_id) do nothing
  returning id, account_id, external_txn_id, amount, currency, date, description, raw
), applied as (
  update accounts set balance = accounts.balance + inserted.amount, transaction_count = accounts.transaction_count + 1
  from inserted where accounts.id = inserted.account_id
  returning accounts.balance
), event as (
  insert into events (id, type, user_id, payload)
  select ?, 'transaction.created', account.user_id, ?::jsonb from inserted, account
)
select inserted.*, applied.balance from inserted, applied`;

export interface SimulationStatementInput {
  userId: string;
  /** The transaction exactly as it is to be stored (and as it appears in the event). */
  row: TransactionRow & { date: Date };
  eventId: string;
  eventPayload: Record<string, unknown>;
}

/** Runs the statement; returns the stored row and the new balance, or null if nothing was written. */
export async function runSimulationStatement(
  em: EntityManager,
  { userId, row, eventId, eventPayload }: SimulationStatementInput,
): Promise<{ row: TransactionRow; balance: number } | null> {
  const [result] = await em.execute<(TransactionRow & { balance: string | number })[]>(SIMULATE, [
    row.account_id,
    userId,
    Number(row.amount),
    MAX_BALANCE,
    row.id,
    row.external_txn_id,
    Number(row.amount),
    row.currency,
    row.date.toISOString(),
    row.description,
    JSON.stringify(row.raw),
    eventId,
    JSON.stringify(eventPayload),
  ]);
  if (!result) return null;
  const { balance, ...stored } = result;
  return { row: stored, balance: Number(balance) };
}

const PROBE = `
select a.status, a.balance, t.id, t.account_id, t.external_txn_id, t.amount, t.currency, t.date, t.description, t.raw
from accounts a left join transactions t on t.account_id = a.id and t.external_txn_id = ?
where a.id = ? and a.user_id = ?`;

export interface SimulationProbe {
  status: 'open' | 'closed';
  balance: number;
  /** The transaction already stored under this externalTxnId, if any. */
  existing: TransactionRow | null;
}

/** The failure path only: the account as the caller may see it, and any earlier transaction with that id. */
export async function probeSimulation(
  em: EntityManager,
  { userId, accountId, externalTxnId }: { userId: string; accountId: string; externalTxnId: string },
): Promise<SimulationProbe | null> {
  const [found] = await em.execute<(Partial<TransactionRow> & { status: 'open' | 'closed'; balance: string })[]>(PROBE, [
    externalTxnId,
    accountId,
    userId,
  ]);
  if (!found) return null;
  const { status, balance, ...transaction } = found;
  return { status, balance: Number(balance), existing: transaction.id ? (transaction as TransactionRow) : null };
}
