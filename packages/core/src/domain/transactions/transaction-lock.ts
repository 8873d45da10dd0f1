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
import { rowToTransaction, type TransactionRow } from '../../mappers/transaction.ts';
import {
  lockTransactionRow,
  type RecordedChange,
  selectChangeToVersion,
  selectPostOf,
  updateTransition,
} from './queries/lifecycle.ts';

export type { RecordedChange };

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

/** Locks the caller's transaction and its account; another user's (or a missing) one is 404. */
export async function lockTransaction(tx: EntityManager, userId: string, transactionId: string): Promise<LockedTransaction> {
  const found = await lockTransactionRow(tx, userId, transactionId);
  if (!found) throw notFound('Transaction');
  const { user_id, reversed_amount, settle_at, expire_at, account_status, balance, held_amount, ...row } = found;
  return {
    row,
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

/** The change that posted this transaction (pending → posted), or null when it was never pending. */
export async function findPost(tx: EntityManager, locked: LockedTransaction): Promise<RecordedChange | null> {
  const post = await selectPostOf(tx, locked.userId, locked.row.id);
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
    const change = await selectChangeToVersion(tx, { userId: locked.userId, transactionId: locked.row.id, version });
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
  await updateTransition(tx, {
    next,
    postedAt,
    delta,
    eventId: uuidv7(),
    eventType: event.type,
    userId: locked.userId,
    payload: JSON.stringify({ transaction, ...event.extra, balances }),
    at: event.at,
  });
  return { transaction, ...balances, changed: true };
}

export function balancesAfter(locked: LockedTransaction, delta: AccountDelta): Balances {
  const balance = locked.balance + delta.balance;
  return { balance, availableBalance: balance - (locked.heldAmount + delta.held) };
}
