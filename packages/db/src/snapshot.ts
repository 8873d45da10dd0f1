/**
 * A read-only REPEATABLE READ transaction on a connection of its own, for a read that spans many
 * statements and must see one snapshot — a statement's totals, then its entries page by page
 * through a cursor while the file streams to the client. Bounded in time: the transaction ends
 * itself (PostgreSQL closes the session) when it sits idle longer than `idleMs`, e.g. behind a
 * client that stopped reading.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

export interface Snapshot {
  /** Runs `sql` (`?` placeholders, as MikroORM takes them) in the snapshot. */
  query<Row>(sql: string, values?: unknown[]): Promise<Row[]>;
  /** Ends the transaction and returns the connection; safe to call more than once. */
  close(): Promise<void>;
}

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export async function openSnapshot(em: EntityManager, { idleMs = 60_000 } = {}): Promise<Snapshot> {
  const pool: pg.Pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  // A checked-out connection that PostgreSQL ends (the idle limit) emits 'error' when no query is
  // running; without a listener that ends the process. The next query fails instead, and close()
  // drops the connection. (MikroORM's pool listens too; this does not depend on it.)
  const onError = () => {};
  client.on('error', onError);
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(`select set_config('idle_in_transaction_session_timeout', $1, true)`, [`${Math.ceil(idleMs)}ms`]);
  } catch (error) {
    client.off('error', onError);
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  let closed = false;
  return {
    async query<Row>(sql: string, values: unknown[] = []) {
      const result = await client.query(numbered(sql), values);
      return result.rows as Row[];
    },
    async close() {
      if (closed) return;
      closed = true;
      client.off('error', onError);
      try {
        await client.query('rollback');
        client.release();
      } catch (error) {
        // A broken connection (or one PostgreSQL closed for idling): drop it from the pool.
        client.release(error instanceof Error ? error : true);
      }
    },
  };
}
