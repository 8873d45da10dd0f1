/**
 * The SQL of removing worlds (remove-worlds.ts): the expired ones' lock, their rate-limit buckets and
 * their user rows (docs/architecture.md, "The schema"). One named function per statement, written
 * with Kysely over the generated tables (`kysely(em)`).
 */
import { type EntityManager, kysely } from '@sandbank/db';
import { sql } from 'kysely';

/** A JSON list of ids as a set of uuids (one parameter, however many). */
const uuidsOf = (ids: readonly string[]) =>
  sql<string>`(select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/** Removes the rate-limit buckets of the worlds' API keys (keyed `…:<keyId>`). */
export async function deleteApiKeyRateLimits(em: EntityManager, userIds: string[]): Promise<void> {
  const db = kysely(em);
  await db
    .deleteFrom('rate_limits')
    .where(
      sql`right(key, 36)`,
      'in',
      db.selectFrom('api_keys').select(sql<string>`id::text`.as('id')).where('user_id', 'in', uuidsOf(userIds)),
    )
    .execute();
}

/** Deletes the user rows (every table of a world cascades from them); how many went. */
export async function deleteUsers(em: EntityManager, userIds: string[]): Promise<number> {
  const removed = await kysely(em).deleteFrom('users').where('id', 'in', uuidsOf(userIds)).returning('id').execute();
  return removed.length;
}

/** Up to `batch` worlds whose TTL has passed, locked (FOR UPDATE SKIP LOCKED: several sweepers share the work). */
export async function lockExpiredWorlds(tx: EntityManager, batch: number): Promise<string[]> {
  const expired = await kysely(tx)
    .selectFrom('worlds')
    .select('id')
    .where('expires_at', '<=', sql<string>`sandbank_wall_now()`)
    .orderBy('expires_at')
    .limit(batch)
    .forUpdate()
    .skipLocked()
    .execute();
  return expired.map((row) => row.id);
}
