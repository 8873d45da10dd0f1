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

const RESET = `
with schedules_removed as (
  delete from schedules where user_id = ? returning 1
), events_removed as (
  delete from events where user_id = ? returning 1
), transactions_removed as (
  delete from transactions where user_id = ? returning 1
)
select (select count(*) from schedules_removed) as schedules,
       (select count(*) from events_removed) as events,
       (select count(*) from transactions_removed) as transactions`;

export async function resetSandbox(em: EntityManager, { userId }: { userId: string }): Promise<ResetCounts> {
  return withClockLock(em, userId, () => em.transactional((tx) => resetWorld(tx, userId)));
}

/** The reset itself, inside the caller's transaction and clock lock (a scenario applied with `reset`). */
export async function resetWorld(tx: EntityManager, userId: string): Promise<ResetCounts> {
  // Schedules first (their runs point at transactions), then events (deliveries cascade), then
  // transactions; accounts last, once nothing refers to them.
  const [removed] = await tx.execute<{ schedules: string; events: string; transactions: string }[]>(RESET, [
    userId,
    userId,
    userId,
  ]);
  const accounts = await tx.execute<{ id: string }[]>('delete from accounts where user_id = ? returning id', [userId]);
  await tx.execute('update users set clock_offset_ms = 0, sync_epoch = sync_epoch + 1, updated_at = now() where id = ?', [
    userId,
  ]);
  return {
    accounts: accounts.length,
    transactions: Number(removed?.transactions ?? 0),
    schedules: Number(removed?.schedules ?? 0),
    events: Number(removed?.events ?? 0),
  };
}
