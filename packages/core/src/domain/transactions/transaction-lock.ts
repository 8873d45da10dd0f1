/**
 * The shared machinery of the lifecycle transitions (post, void, reverse, patch): lock the
 * transaction and its account, then write the new state, the balances and the event in one
 * statement — all inside the caller's database transaction.
 *
 * Why it is safe: `for update of t for no key update of a` holds both rows until commit, so the
 * checks made in JavaScript on the locked values stay true until the write; the write itself still
 * adds deltas in SQL (`balance + Δ`) and the CHECKs (available ≥ 0, held ≥ 0, balance ≤ 10^15,
 * posted_at iff posted, …) remain the database's last word. Lock order is always transaction row,
 * then account row; the booking statement locks only the account and inserts new rows, so no
 * cycle can form.
 */
import type { EntityManager } from '@sandbank/db';
import type { Balances, EventType, Transaction } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { rowToTransaction, TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';

export interface LockedTransaction {
  row: TransactionRow;
  userId: string;
  reversedAmount: number;
  settleAt: Date | null;
  expireAt: Date | null;
  accountStatus: 'open' | 'closed';
  balance: number;
  heldAmount: number;
}

const LOCK = `
select ${TRANSACTION_COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ')}, t.user_id, t.reversed_amount, t.settle_at, t.expire_at,
       a.status as account_status, a.balance, a.held_amount
from transactions t join accounts a on a.id = t.account_id
where t.id = ? and t.user_id = ?
for update of t for no key update of a`;

/** Locks the caller's transaction and its account; another user's (or a missing) one is 404. */
export async function lockTransaction(tx: EntityManager, userId: string, transactionId: string): Promise<LockedTransaction> {
  const [found] = await tx.execute(LOCK, [transactionId, userId]);
  if (!found) throw notFound('Transaction');
  const { user_id, reversed_amount, settle_at, expire_at, account_status, balance, held_amount, ...row } = found;
  return {
    row: row as TransactionRow,
    userId: user_id,
    reversedAmount: Number(reversed_amount),
    settleAt: settle_at ? new Date(settle_at) : null,
    expireAt: expire_at ? new Date(expire_at) : null,
    accountStatus: account_status,
    balance: Number(balance),
    heldAmount: Number(held_amount),
  };
}

export function checkVersion(locked: LockedTransaction, ifVersion: number | undefined): void {
  if (ifVersion !== undefined && ifVersion !== Number(locked.row.version)) throw versionConflict(locked, ifVersion);
}

const versionConflict = (locked: LockedTransaction, ifVersion: number) =>
  new AppError('VERSION_CONFLICT', `The transaction is at version ${locked.row.version}, not ${ifVersion}`);

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

/** The change that posted this transaction (pending → posted), or null when it was never pending. */
export async function findPost(tx: EntityManager, locked: LockedTransaction): Promise<RecordedChange | null> {
  const [post] = await tx.execute<RecordedChange[]>(POST_OF_TRANSACTION, [locked.userId, locked.row.id]);
  return post ?? null;
}

/**
 * `ifVersion` on a transition that has already happened (a repeat, docs/concepts/lifecycle.md). The transaction is
 * answered as it is when it is at that version, or one past it through this same transition — a
 * client retrying a request whose answer was lost; if anything else changed it since (or the
 * change from that version was another one), 409 VERSION_CONFLICT.
 */
export async function checkRepeatVersion(
  tx: EntityManager,
  locked: LockedTransaction,
  ifVersion: number | undefined,
  isThisTransition: (change: RecordedChange) => boolean,
): Promise<void> {
  const version = Number(locked.row.version);
  if (ifVersion === undefined || ifVersion === version) return;
  if (version === ifVersion + 1) {
    const [change] = await tx.execute<RecordedChange[]>(CHANGE_TO_VERSION, [locked.userId, locked.row.id, String(version)]);
    if (change && isThisTransition(change)) return;
  }
  throw versionConflict(locked, ifVersion);
}

export const invalidTransition = (message: string) => new AppError('INVALID_TRANSITION', message);

export interface AccountDelta {
  balance: number;
  held: number;
  /** Change of the account's count of pending and posted rows. */
  count: number;
}

export interface TransitionResult {
  transaction: Transaction;
  balance: number;
  availableBalance: number;
  /** False when the transition had already happened and nothing was written. */
  changed: boolean;
}

/** The answer to a transition that had already happened: the transaction as it is. */
export function unchanged(locked: LockedTransaction): TransitionResult {
  return {
    transaction: rowToTransaction(locked.row),
    balance: locked.balance,
    availableBalance: locked.balance - locked.heldAmount,
    changed: false,
  };
}

export interface EventDraft {
  type: EventType;
  /** Fields of `data` besides `transaction` and `balances` (previous, changes, reason). */
  extra?: Record<string, unknown>;
  at: Date;
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

/** Writes the transaction's new state, the account's deltas and the event, as one statement. */
export async function writeTransition(
  tx: EntityManager,
  locked: LockedTransaction,
  next: TransactionRow,
  delta: AccountDelta,
  event: EventDraft,
): Promise<TransitionResult> {
  const transaction = rowToTransaction(next);
  const balances = balancesAfter(locked, delta);
  const postedAt = next.posted_at === null ? null : new Date(next.posted_at).toISOString();
  await tx.execute(UPDATE, [
    next.status,
    Number(next.amount),
    postedAt,
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
    uuidv7(),
    event.type,
    locked.userId,
    JSON.stringify({ transaction, ...event.extra, balances }),
    event.at.toISOString(),
  ]);
  return { transaction, ...balances, changed: true };
}

export function balancesAfter(locked: LockedTransaction, delta: AccountDelta): Balances {
  const balance = locked.balance + delta.balance;
  return { balance, availableBalance: balance - (locked.heldAmount + delta.held) };
}
