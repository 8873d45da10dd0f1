/**
 * A database transaction run again when PostgreSQL rolled it back for a reason that a second run
 * does not meet: a deadlock's victim (40P01), say. The whole transaction rolled back, so running the
 * work again is safe; after `attempts` runs the error goes to the caller.
 */
import type { EntityManager } from '@sandbank/db';

export const DEADLOCK = '40P01';

export async function retriedTransaction<T>(
  em: EntityManager,
  work: (tx: EntityManager) => Promise<T>,
  { codes = [DEADLOCK], attempts = 3 }: { codes?: readonly string[]; attempts?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional(work);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= attempts || typeof code !== 'string' || !codes.includes(code)) throw error;
    }
  }
}
