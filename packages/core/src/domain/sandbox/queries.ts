/**
 * The SQL of emptying and restoring a world (docs/architecture.md, "The schema"): one named
 * function per statement; `reset-sandbox.ts` and `worlds/restore-snapshot.ts` keep the order.
 */
import type { EntityManager } from '@sandbank/db';

/** The world's rows a reset removes, by kind; each statement sees every commit before it (READ COMMITTED). */
const REMOVE = {
  schedules: 'delete from schedules where user_id = ?', // their runs cascade
  transactions: 'delete from transactions where user_id = ?',
  accounts: 'delete from accounts where user_id = ?', // their payments cascade
  paymentFiles: 'delete from payment_files where user_id = ?', // after the payments of their files
  events: 'delete from events where user_id = ?', // their deliveries cascade
} as const;

/** Removes the user's rows of one kind; how many went. */
export async function deleteWorldRows(tx: EntityManager, userId: string, kind: keyof typeof REMOVE): Promise<number> {
  const [row] = await tx.execute<{ n: string }[]>(`with d as (${REMOVE[kind]} returning 1) select count(*) as n from d`, [
    userId,
  ]);
  return Number(row?.n ?? 0);
}

/**
 * Moves what a world keeps through a reset or a restore — its API keys' instants and its webhooks'
 * creation — with its clock: by `ms` milliseconds, or back by the clock's current offset (a reset).
 */
export async function shiftKeptRows(tx: EntityManager, userId: string, by: { ms: number } | 'back by the clock offset') {
  const [shift, value] =
    by === 'back by the clock offset'
      ? [`(select -clock_offset_ms * interval '1 millisecond' from users where id = ?)`, userId]
      : [`(? * interval '1 millisecond')`, by.ms];
  await tx.execute(
    `update api_keys set created_at = created_at + ${shift}, last_used_at = last_used_at + ${shift},
       expires_at = expires_at + ${shift}, revoked_at = revoked_at + ${shift} where user_id = ?`,
    [value, value, value, value, userId],
    'run',
  );
  await tx.execute(`update webhooks set created_at = created_at + ${shift} where user_id = ?`, [value, userId], 'run');
}

/** Sets the clock back to 0 and moves the sync epoch on (cursors issued before answer 410). */
export async function resetClockAndEpoch(tx: EntityManager, userId: string): Promise<void> {
  await tx.execute('update users set clock_offset_ms = 0, sync_epoch = sync_epoch + 1, updated_at = now() where id = ?', [
    userId,
  ]);
}

export async function setClockOffset(tx: EntityManager, userId: string, offsetMs: number): Promise<void> {
  await tx.execute('update users set clock_offset_ms = ? where id = ?', [offsetMs, userId], 'run');
}
