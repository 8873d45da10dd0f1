/**
 * `POST /v1/sandbox/reset` (docs/concepts/clock-and-schedules.md): empty a world and set its clock back to 0. Removes the
 * user's accounts, transactions, schedules (and their runs), events and their pending deliveries,
 * pinned rates and the rates' seed;
 * keeps the user, credentials, API keys and webhooks (their world timestamps move back with the
 * clock, so each keeps its age). One database transaction, under the world's
 * clock lock, so no advance or due-item pass runs halfway through it. Sync cursors issued before
 * it answer 410 CURSOR_EXPIRED (the user's sync epoch moves on).
 */
import type { EntityManager } from '@sandbank/db';
import { DEADLOCK, retriedTransaction } from '../../lib/retried-transaction.ts';
import { lockAccountsOfUser } from '../accounts/queries.ts';
import { lockUser } from '../auth/queries.ts';
import { withClockLock } from '../clock/clock.ts';
import { deleteFxWorld } from '../currencies/queries.ts';
import { deleteWorldRows, resetClockAndEpoch, shiftKeptRows } from './queries.ts';

export interface ResetCounts {
  accounts: number;
  transactions: number;
  schedules: number;
  events: number;
}

const FOREIGN_KEY_VIOLATION = '23503';

export async function resetSandbox(em: EntityManager, { userId }: { userId: string }): Promise<ResetCounts> {
  // Run again after a deadlock, or after a reversal that committed beside its original while the
  // rows were removed (its foreign key then refuses the original's removal).
  return withClockLock(em, userId, () =>
    retriedTransaction(em, (tx) => resetWorld(tx, userId), { codes: [DEADLOCK, FOREIGN_KEY_VIOLATION] }),
  );
}

/**
 * The reset itself, inside the caller's transaction and clock lock (a scenario applied with `reset`).
 *
 * Creations of accounts, keys and webhooks wait for it (the user's row). Bookings and transitions
 * keep running meanwhile, so the order is what keeps it whole, with the locks they take in theirs
 * (a transition: its transaction's row, then its account's; a booking: its account's):
 * 1. schedules, then transactions (waiting for transitions in flight, which hold a transaction);
 * 2. the accounts locked: bookings in flight finish, new ones wait and then find no account;
 * 3. transactions again (what those bookings added), accounts, and events last — so a change that
 *    reached a row before it went has committed its event by then. Removing events before the
 *    accounts once left a booking's event behind for a transaction the reset removed.
 */
export async function resetWorld(tx: EntityManager, userId: string): Promise<ResetCounts> {
  const remove = (kind: Parameters<typeof deleteWorldRows>[2]) => deleteWorldRows(tx, userId, kind);
  // New accounts, keys and webhooks wait (their creation locks the user's row for its limit), so
  // none slips in between the statements; bookings only KEY SHARE it, which this lock lets through.
  await lockUser(tx, userId);
  const schedules = await remove('schedules');
  let transactions = await remove('transactions');
  await lockAccountsOfUser(tx, userId);
  transactions += await remove('transactions');
  const accounts = await remove('accounts');
  await remove('paymentFiles');
  const events = await remove('events');
  // The world's pinned rates and its seed go too: a reset world has the default rates.
  await deleteFxWorld(tx, userId);
  // The clock goes back by its offset; what the world keeps (API keys, webhooks) goes back with it,
  // so each keeps its age: an expired key stays expired, none was last used in the future.
  await shiftKeptRows(tx, userId, 'back by the clock offset');
  await resetClockAndEpoch(tx, userId);
  return { accounts, transactions, schedules, events };
}
