/**
 * The SQL of removing worlds (remove-worlds.ts): the expired ones' lock, their rate-limit buckets and
 * their user rows (docs/architecture.md, "The schema"). One named function per statement.
 */
import type { EntityManager } from '@sandbank/db';

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
