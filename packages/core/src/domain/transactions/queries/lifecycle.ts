/**
 * The SQL of one transaction's lifecycle (docs/architecture.md, "The schema"; the locking:
 * transaction-lock.ts): reading it, locking it with its account, the events that changed it, and its
 * writes (a transition, a reversal). One named function per statement.
 */
import type { EntityManager } from '@sandbank/db';
import type { EventType, Transaction } from '@sandbank/schemas';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../../mappers/transaction.ts';

/** One transaction of the user, by id, or undefined. */
export async function selectTransaction(
  em: EntityManager,
  userId: string,
  transactionId: string,
): Promise<TransactionRow | undefined> {
  const [row] = await em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where id = ? and user_id = ?`,
    [transactionId, userId],
  );
  return row;
}

/** The transaction of an account booked under an externalTxnId, or undefined. */
export async function selectByExternalTxnId(
  tx: EntityManager,
  accountId: string,
  externalTxnId: string,
): Promise<TransactionRow | undefined> {
  const [existing] = await tx.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where account_id = ? and external_txn_id = ?`,
    [accountId, externalTxnId],
  );
  return existing;
}

const LOCK = `
select ${TRANSACTION_COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ')}, t.user_id, t.reversed_amount, t.settle_at, t.expire_at,
       a.status as account_status, a.balance, a.held_amount
from transactions t join accounts a on a.id = t.account_id
where t.id = ? and t.user_id = ?
for update of t for no key update of a`;

export type LockedRow = TransactionRow & {
  user_id: string;
  reversed_amount: string | number;
  settle_at: Date | string | null;
  expire_at: Date | string | null;
  account_status: 'open' | 'closed';
  balance: string | number;
  held_amount: string | number;
};

/** Locks the user's transaction (FOR UPDATE) and then its account (FOR NO KEY UPDATE); undefined: no such transaction. */
export async function lockTransactionRow(
  tx: EntityManager,
  userId: string,
  transactionId: string,
): Promise<LockedRow | undefined> {
  const [found] = await tx.execute<LockedRow[]>(LOCK, [transactionId, userId]);
  return found;
}

/** The change that brought a transaction to a version, as its event recorded it. */
export interface RecordedChange {
  type: EventType;
  /** `transaction.updated`: the changed fields' old values and their names. */
  previous: Record<string, unknown> | null;
  changes: string[] | null;
}

// Writes to one transaction serialise on its row lock, so its events' (txid, seq) follow its versions;
// the newest-first walk of the user's log stops at the first match, the most recent change.
const CHANGE_TO_VERSION = `
select type, payload->'previous' as previous, payload->'changes' as changes
  from events
 where user_id = ? and payload->'transaction'->>'id' = ? and payload->'transaction'->>'version' = ?
 order by txid desc, seq desc
 limit 1`;

// The post that made a transaction posted: none for one booked posted (or a reversal).
const POST_OF_TRANSACTION = `
select type, payload->'previous' as previous, payload->'changes' as changes
  from events
 where user_id = ? and type = 'transaction.updated' and payload->'transaction'->>'id' = ?
   and payload->'previous'->>'status' = 'pending'
 order by txid desc, seq desc
 limit 1`;

/** The event that brought the transaction to `version`, or undefined. */
export async function selectChangeToVersion(
  tx: EntityManager,
  { userId, transactionId, version }: { userId: string; transactionId: string; version: number },
): Promise<RecordedChange | undefined> {
  const [change] = await tx.execute<RecordedChange[]>(CHANGE_TO_VERSION, [userId, transactionId, String(version)]);
  return change;
}

/** The post (pending → posted) of the transaction, or undefined. */
export async function selectPostOf(
  tx: EntityManager,
  userId: string,
  transactionId: string,
): Promise<RecordedChange | undefined> {
  const [post] = await tx.execute<RecordedChange[]>(POST_OF_TRANSACTION, [userId, transactionId]);
  return post;
}

const UPDATE = `
with txn as (
  update transactions
     set status = ?, amount = ?, posted_at = ?::timestamptz, version = ?, description = ?, merchant = ?, category = ?,
         posted_from_pending = posted_from_pending or (status = 'pending' and ? = 'posted'),
         settle_at = case when ? = 'pending' then settle_at end, expire_at = case when ? = 'pending' then expire_at end,
         updated_at = now()
   where id = ?
), account as (
  update accounts set balance = balance + ?, held_amount = held_amount + ?, transaction_count = transaction_count + ?
   where id = ?
)
insert into events (id, type, user_id, payload, created_at) values (?, ?, ?, ?::jsonb, ?::timestamptz)`;

/** The event a write records: its id, its user, its payload (JSON) and the world's instant. */
interface EventWrite {
  eventId: string;
  userId: string;
  payload: string;
  at: Date;
}

export interface TransitionWrite extends EventWrite {
  /** The transaction's new state. */
  next: TransactionRow;
  /** `next.posted_at` as an ISO string, or null. */
  postedAt: string | null;
  delta: { balance: number; held: number; count: number };
  eventType: EventType;
}

/** The transaction's new state, the account's deltas and the event, as one statement. */
export async function updateTransition(tx: EntityManager, w: TransitionWrite): Promise<void> {
  const { next, delta } = w;
  await tx.execute(UPDATE, [
    next.status,
    Number(next.amount),
    w.postedAt,
    Number(next.version),
    next.description,
    next.merchant,
    next.category,
    next.status,
    next.status,
    next.status,
    next.id,
    delta.balance,
    delta.held,
    delta.count,
    next.account_id,
    w.eventId,
    w.eventType,
    w.userId,
    w.payload,
    w.at.toISOString(),
  ]);
}

const BOOK_REVERSAL = `
with original as (
  update transactions set reversed_amount = reversed_amount + ?, updated_at = now() where id = ?
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw,
                            status, posted_at, merchant, category, reversal_of, payment_id)
  values (?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?::jsonb, 'posted', ?::timestamptz, ?, ?, ?, ?)
), account as (
  update accounts set balance = balance + ?, transaction_count = transaction_count + 1 where id = ?
)
insert into events (id, type, user_id, payload, created_at) values (?, 'transaction.created', ?, ?::jsonb, ?::timestamptz)`;

export interface ReversalWrite extends EventWrite {
  /** How much of the original this reversal gives back (positive). */
  magnitude: number;
  original: TransactionRow;
  reversal: Transaction;
  /** The reversal's signed amount. */
  amount: number;
}

/** The original's reversed amount, the reversal's row, the account's balance and the event, as one statement. */
export async function insertReversal(tx: EntityManager, w: ReversalWrite): Promise<void> {
  const { original, reversal } = w;
  await tx.execute(BOOK_REVERSAL, [
    w.magnitude,
    original.id,
    reversal.id,
    reversal.accountId,
    w.userId,
    reversal.externalTxnId,
    w.amount,
    reversal.currency,
    reversal.date,
    reversal.description,
    JSON.stringify(reversal.raw),
    reversal.postedAt,
    reversal.merchant,
    reversal.category,
    original.id,
    reversal.paymentId ?? null,
    w.amount,
    original.account_id,
    w.eventId,
    w.userId,
    w.payload,
    w.at.toISOString(),
  ]);
}
