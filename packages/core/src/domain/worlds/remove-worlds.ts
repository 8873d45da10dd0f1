/**
 * Removing child worlds: at once (`DELETE /v1/worlds/:id`, worlds.ts) or by the worker once
 * their TTL has passed (`sweepExpiredWorlds`, apps/worker/src/world-sweep.ts). A world is a user, and
 * every table of a world cascades from `users`: deleting the user row removes it all, its own
 * snapshots included. Kept apart from worlds.ts so the worker loads only this.
 */
import type { EntityManager } from '@sandbank/db';
import { deleteApiKeyRateLimits, deleteUsers, lockExpiredWorlds } from './queries/removal.ts';

/**
 * Removes worlds and everything in them: their user rows, from which every table cascades, and the
 * rate-limit buckets of their API keys (keyed by key id, `…:<keyId>`; they would only expire).
 */
export async function removeWorlds(em: EntityManager, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await deleteApiKeyRateLimits(em, ids);
  return deleteUsers(em, ids);
}

/**
 * The worker's sweep: removes child worlds whose TTL has passed (wall time), `batch` at a time, until
 * none is left. Whenever it runs — also long after the expiry, when no worker ran at that moment —
 * it removes every expired world. Several workers may sweep at once (SKIP LOCKED).
 */
export async function sweepExpiredWorlds(em: EntityManager, { batch = 50 }: { batch?: number } = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await em.transactional(async (tx) => {
      return removeWorlds(tx, await lockExpiredWorlds(tx, batch));
    });
    total += removed;
    if (removed < batch) return total;
  }
}
