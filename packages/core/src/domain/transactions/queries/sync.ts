/**
 * The SQL of sync (sync-transactions.ts) (docs/architecture.md, "The schema"): one named function per
 * statement.
 */
import type { EntityManager } from '@sandbank/db';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../../mappers/transaction.ts';

/** The user's sync epoch, and whether `accountId` (when given) is one of the user's accounts; undefined: no such user. */
export async function selectSyncUser(
  em: EntityManager,
  { userId, accountId }: { userId: string; accountId: string | null },
): Promise<{ sync_epoch: number; account_ok: boolean } | undefined> {
  const [user] = await em.execute<{ sync_epoch: number; account_ok: boolean }[]>(
    'select sync_epoch, (?::uuid is null or exists (select 1 from accounts where id = ? and user_id = users.id)) as account_ok from users where id = ?',
    [accountId, accountId, userId],
  );
  return user;
}

/** Up to `take` of the user's (or one account's) transactions that are not voided, in history order, after `after`. */
export async function selectSyncSnapshotRows(
  em: EntityManager,
  {
    userId,
    accountId,
    after,
    take,
  }: { userId: string; accountId: string | null; after: { date: string; id: string } | null; take: number },
): Promise<TransactionRow[]> {
  const conditions = ['user_id = ?', "status <> 'voided'"];
  const params: unknown[] = [userId];
  if (accountId) {
    conditions.push('account_id = ?');
    params.push(accountId);
  }
  if (after) {
    // Keyset on the history index (user_id | account_id, date desc, id desc).
    conditions.push('(date, id) < (?::timestamptz, ?::uuid)');
    params.push(after.date, after.id);
  }
  return em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where ${conditions.join(' and ')} order by date desc, id desc limit ?`,
    [...params, take],
  );
}

/** The user's transactions with these ids (in no order; a missing one is left out). */
export async function selectTransactionsByIds(
  em: EntityManager,
  userId: string,
  ids: readonly string[],
): Promise<TransactionRow[]> {
  return em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where user_id = ? and id in (${ids.map(() => '?').join(', ')})`,
    [userId, ...ids],
  );
}

/** The accounts named by the user's scenario.applied event at `at`; null if it is gone. */
export async function selectScenarioEventAccounts(
  em: EntityManager,
  userId: string,
  at: { txid: string; seq: string },
): Promise<{ id: string }[] | null> {
  const [event] = await em.execute<{ accounts: { id: string }[] | null }[]>(
    `select payload->'scenario'->'accounts' as accounts from events
      where user_id = ? and txid = ?::xid8 and seq = ?::bigint and type = 'scenario.applied'`,
    [userId, at.txid, at.seq],
  );
  return event?.accounts ?? null;
}

/** Up to `take` of an account's transactions written by a scenario, in history order, after `after`. */
export async function selectScenarioRows(
  em: EntityManager,
  {
    accountId,
    userId,
    after,
    take,
  }: { accountId: string; userId: string; after: { date: string; id: string } | null; take: number },
): Promise<{ id: string; date: Date | string }[]> {
  return em.execute<{ id: string; date: Date | string }[]>(
    `select id, date from transactions
          where account_id = ? and user_id = ? and raw->>'source' = 'scenario'
                ${after ? 'and (date, id) < (?::timestamptz, ?::uuid)' : ''}
          order by date desc, id desc limit ?`,
    [accountId, userId, ...(after ? [after.date, after.id] : []), take],
  );
}
