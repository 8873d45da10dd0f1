/**
 * The SQL of emptying and restoring a world (docs/architecture.md, "The schema"): one named
 * function per statement; `reset-sandbox.ts` and `worlds/restore-snapshot.ts` keep the order.
 */
import { type EntityManager, kysely } from '@sandbank/db';
import { sql } from 'kysely';

/** The world's tables a reset empties of the user's rows, by kind; each statement sees every commit before it (READ COMMITTED). */
const REMOVE = {
  schedules: 'schedules', // their runs cascade
  transactions: 'transactions',
  accounts: 'accounts', // their payments cascade
  paymentFiles: 'payment_files', // after the payments of their files
  events: 'events', // their deliveries cascade
} as const;

/** Removes the user's rows of one kind; how many went. */
export async function deleteWorldRows(tx: EntityManager, userId: string, kind: keyof typeof REMOVE): Promise<number> {
  const result = await kysely(tx).deleteFrom(REMOVE[kind]).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Moves what a world keeps through a reset or a restore — its API keys' instants and its webhooks'
 * creation — with its clock: by `ms` milliseconds, or back by the clock's current offset (a reset).
 */
export async function shiftKeptRows(tx: EntityManager, userId: string, by: { ms: number } | 'back by the clock offset') {
  const db = kysely(tx);
  const shift =
    by === 'back by the clock offset'
      ? sql`(select -clock_offset_ms * interval '1 millisecond' from users where id = ${userId})`
      : sql`(${by.ms}::double precision * interval '1 millisecond')`;
  const shifted = (column: string) => sql<string>`${sql.ref(column)} + ${shift}`;
  await db
    .updateTable('api_keys')
    .set({
      created_at: shifted('created_at'),
      last_used_at: shifted('last_used_at'),
      expires_at: shifted('expires_at'),
      revoked_at: shifted('revoked_at'),
    })
    .where('user_id', '=', userId)
    .execute();
  await db
    .updateTable('webhooks')
    .set({ created_at: shifted('created_at') })
    .where('user_id', '=', userId)
    .execute();
}

/** Sets the clock back to 0 and moves the sync epoch on (cursors issued before answer 410). */
export async function resetClockAndEpoch(tx: EntityManager, userId: string): Promise<void> {
  await kysely(tx)
    .updateTable('users')
    .set({ clock_offset_ms: 0, sync_epoch: sql<number>`sync_epoch + 1`, updated_at: sql<string>`now()` })
    .where('id', '=', userId)
    .execute();
}

export async function setClockOffset(tx: EntityManager, userId: string, offsetMs: number): Promise<void> {
  await kysely(tx).updateTable('users').set({ clock_offset_ms: offsetMs }).where('id', '=', userId).execute();
}
