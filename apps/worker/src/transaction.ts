/** One database transaction on a pooled client of the worker's own pg pool. */
import type pg from 'pg';
import { beginTransaction, commitTransaction, rollbackTransaction } from './queries.ts';

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await beginTransaction(client);
    const result = await work(client);
    await commitTransaction(client);
    return result;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await rollbackTransaction(client).catch(() => {});
    throw error;
  } finally {
    // A client whose statement failed may be broken (e.g. its connection was killed): discard it.
    client.release(failure);
  }
}
