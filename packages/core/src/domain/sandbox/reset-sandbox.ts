/**
 * `POST /v1/sandbox/reset` (SPEC §5): empty a world and set its clock back to 0. Removes the
 * user's accounts, transactions, schedules (and their runs), events and their pending deliveries;
 * keeps the user, credentials, API keys and webhooks. One database transaction, under the world's
 * clock lock, so no advance or due-item pass runs halfway through it. Sync cursors issued before
 * it answer 410 CURSOR_EXPIRED (the user's sync epoch moves on).
 */
import type { EntityManager } from '@sandbank/db';
import { withClockLock } from '../clock/clock.ts';

export interface ResetCounts {
  accounts: number;
  transactions: number;
  schedules: number;
  events: number;
}

/** The world's rows, counted as they go; each statement sees every commit before it (READ COMMITTED). */
const REMOVE = {
  schedules: 'delete from schedules where user_id = ?', // their runs cascade
  transactions: 'delete from transactions where user_id = ?',
  accounts: 'delete from accounts where user_id = ?',
  events: 'delete from events where user_id = ?', // their deliveries cascade
} as const;

export async function resetSandbox(em: EntityManager, { userId }: { userId: string }): Promise<ResetCounts> {
  return withClockLock(em, userId, () => em.transactional((tx) => resetWorld(tx, userId)));
}

/** The reset itself, inside the caller's transaction and clock lock (a scenario applied with `reset`). */
export async function resetWorld(tx: EntityManager, userId: string): Promise<ResetCounts> {
  // Writers of this world first finish or wait: the user's row stops new accounts (their creation
  // locks it), the accounts' rows wait for bookings and transitions in flight (each locks its
  // account) and hold back new ones, which then find no account. Without this, a simulation that
  // committed between two of the statements below left its event behind for a removed transaction.
  await tx.execute('select 1 from users where id = ? for no key update', [userId]); // not KEY SHARE: bookings' foreign keys take that
  await tx.execute('select 1 from accounts where user_id = ? order by id for update', [userId]);
  const remove = async (sql: string) =>
    (await tx.execute<{ removed: string }[]>(`with d as (${sql} returning 1) select count(*) as removed from d`, [userId]))[0]
      ?.removed;
  // Events last: a change that reached a transaction row before it was removed has committed its
  // event by then (its UPDATE held the row), and one that came after found no row.
  const schedules = await remove(REMOVE.schedules);
  const transactions = await remove(REMOVE.transactions);
  const accounts = await remove(REMOVE.accounts);
  const events = await remove(REMOVE.events);
  await tx.execute('update users set clock_offset_ms = 0, sync_epoch = sync_epoch + 1, updated_at = now() where id = ?', [
    userId,
  ]);
  return {
    accounts: Number(accounts ?? 0),
    transactions: Number(transactions ?? 0),
    schedules: Number(schedules ?? 0),
    events: Number(events ?? 0),
  };
}
