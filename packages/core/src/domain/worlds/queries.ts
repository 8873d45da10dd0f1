/**
 * The SQL of worlds and their snapshots (docs/architecture.md, "The schema"): typed rows and one
 * named function per statement. Moving the rest of the area's statements here (snapshots.ts,
 * worlds.ts, copy-world.ts) is not finished.
 */
import type { EntityManager } from '@sandbank/db';

export interface SnapshotRow {
  id: string;
  name: string;
  taken_at: Date | string;
  clock_offset_ms: string | number;
  accounts: number;
  transactions: number;
  schedules: number;
  webhooks: number;
  api_keys: number;
}

export const SNAPSHOT_COLUMNS = 'id, name, taken_at, clock_offset_ms, accounts, transactions, schedules, webhooks, api_keys';

/** The SQL interval, in milliseconds, between the world's now (users row aliased `u`) and the snapshot's `taken_at` (aliased `s`). */
export const SHIFT_MS_SQL = `(extract(epoch from (date_trunc('milliseconds', sandbank_wall_now() + u.clock_offset_ms * interval '1 millisecond') - s.taken_at)) * 1000)::bigint`;

export async function snapshotExists(em: EntityManager, userId: string, snapshotId: string): Promise<boolean> {
  const rows = await em.execute('select 1 from world_snapshots where id = ? and user_id = ?', [snapshotId, userId]);
  return rows.length > 0;
}

/** The user's snapshot, KEY SHARE locked (it cannot be deleted) until the transaction ends; or undefined. */
export async function lockSnapshot(tx: EntityManager, userId: string, snapshotId: string): Promise<SnapshotRow | undefined> {
  const [row] = await tx.execute<SnapshotRow[]>(
    `select ${SNAPSHOT_COLUMNS} from world_snapshots where id = ? and user_id = ? for key share`,
    [snapshotId, userId],
  );
  return row;
}

/** How far a copy of the snapshot into the user's world moves its instants, in ms. */
export async function selectShiftMs(tx: EntityManager, userId: string, snapshotId: string): Promise<number> {
  const [row] = await tx.execute<{ shift_ms: string }[]>(
    `select ${SHIFT_MS_SQL} as shift_ms from users u, world_snapshots s where u.id = ? and s.id = ?`,
    [userId, snapshotId],
  );
  return Number(row?.shift_ms ?? 0);
}

/** Removes the rate-limit buckets of the worlds' API keys (keyed `…:<keyId>`). */
export async function deleteApiKeyRateLimits(em: EntityManager, userIds: string[]): Promise<void> {
  await em.execute(
    `delete from rate_limits where right(key, 36) in
       (select id::text from api_keys where user_id in (select value::uuid from jsonb_array_elements_text(?::jsonb)))`,
    [JSON.stringify(userIds)],
    'run',
  );
}

/** Deletes the user rows (every table of a world cascades from them); how many went. */
export async function deleteUsers(em: EntityManager, userIds: string[]): Promise<number> {
  const removed = await em.execute<{ id: string }[]>(
    'delete from users where id in (select value::uuid from jsonb_array_elements_text(?::jsonb)) returning id',
    [JSON.stringify(userIds)],
  );
  return removed.length;
}

/** Up to `batch` worlds whose TTL has passed, locked (FOR UPDATE SKIP LOCKED: several sweepers share the work). */
export async function lockExpiredWorlds(tx: EntityManager, batch: number): Promise<string[]> {
  const expired = await tx.execute<{ id: string }[]>(
    `select id from worlds where expires_at <= sandbank_wall_now() order by expires_at limit ? for update skip locked`,
    [batch],
  );
  return expired.map((row) => row.id);
}
