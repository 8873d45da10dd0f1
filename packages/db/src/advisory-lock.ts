/**
 * A session-level PostgreSQL advisory lock on a connection of its own, held across many
 * transactions (e.g. every item of a clock advance commits on its own while the lock is held).
 * If the process dies, its connection closes and PostgreSQL releases the lock: nothing to clean up.
 *
 * The lock takes no transaction id, so it never holds back the event log's snapshot horizon.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Takes the lock named `name`, waiting at most `waitMs` (0: do not wait). Resolves with the held
 * lock, or null when another session holds it for longer than that.
 */
export async function acquireAdvisoryLock(em: EntityManager, name: string, waitMs: number): Promise<HeldLock | null> {
  const pool: pg.Pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  try {
    let got: boolean;
    if (waitMs <= 0) {
      const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as got', [
        name,
      ]);
      got = rows[0]?.got === true;
    } else {
      await client.query(`select set_config('lock_timeout', $1, false)`, [`${Math.ceil(waitMs)}ms`]);
      got = await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]).then(
        () => true,
        (error: { code?: string }) => {
          if (error.code === '55P03') return false; // lock_not_available: waited lock_timeout
          throw error;
        },
      );
      await client.query(`select set_config('lock_timeout', '0', false)`);
    }
    if (!got) {
      client.release();
      return null;
    }
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]);
        client.release();
      } catch (error) {
        // A broken connection has lost the lock already; drop it from the pool.
        client.release(error instanceof Error ? error : true);
      }
    },
  };
}
