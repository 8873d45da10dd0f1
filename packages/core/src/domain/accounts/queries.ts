/**
 * The SQL of accounts read outside the unit of work (docs/architecture.md, "The schema"): one named
 * function per statement; the domain modules call these instead of writing SQL inline.
 */
import type { EntityManager } from '@sandbank/db';

/** Locks one account's row (FOR NO KEY UPDATE, the lock every booking on it takes) until the transaction ends. */
export async function lockAccount(tx: EntityManager, accountId: string): Promise<void> {
  await tx.execute('select 1 from accounts where id = ? for no key update', [accountId]);
}

/** Locks every account of a user, in id order (the order every writer takes them in). */
export async function lockAccountsOfUser(tx: EntityManager, userId: string): Promise<void> {
  await tx.execute('select 1 from accounts where user_id = ? order by id for no key update', [userId]);
}
