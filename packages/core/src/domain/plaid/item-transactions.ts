/**
 * The reads the Plaid face needs for an Item's transactions. Sync is the domain's own
 * (`readSyncPage`, on the gap-free event log), narrowed to the Item's accounts; the face turns its
 * pages into Plaid's added/modified/removed. Plaid also needs to know which posted transactions were
 * pending first (they get a new id in Plaid), a fact the post transition records on the row.
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { rowToTransaction, TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';
import { readSyncPage, type SyncPage } from '../transactions/sync-transactions.ts';
import type { PlaidItem } from './item.ts';

export interface ItemSyncPage {
  page: SyncPage;
  /** Ids in the page that went pending → posted inside it (the client last saw them pending). */
  postedInPage: ReadonlySet<string>;
  /** Ids in the page of posted transactions that were pending first. */
  postedFromPending: ReadonlySet<string>;
}

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

async function postedFromPending(em: EntityManager, userId: string, transactions: Transaction[]): Promise<Set<string>> {
  const posted = transactions.filter((transaction) => transaction.status === 'posted').map((transaction) => transaction.id);
  if (posted.length === 0) return new Set();
  const rows = await em.execute<{ id: string }[]>(
    'select id from transactions where user_id = ? and id = any(?::uuid[]) and posted_from_pending',
    [userId, uuidArray(posted)],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * One page of the user's sync from `cursor`, keeping only the Item's accounts (a page may then hold
 * fewer than `limit`; `hasMore` and the cursor are the log's). Errors are the domain's: a malformed
 * cursor is VALIDATION_ERROR, one from before a reset CURSOR_EXPIRED.
 */
export async function syncItem(
  em: EntityManager,
  { item, cursor, limit }: { item: PlaidItem; cursor: string | undefined; limit: number },
): Promise<ItemSyncPage> {
  const { page, postedInPage } = await readSyncPage(em, { userId: item.userId, limit, ...(cursor ? { cursor } : {}) });
  const linked = new Set(item.accountIds);
  const inItem = <T extends { accountId: string }>(list: T[]) => list.filter((entry) => linked.has(entry.accountId));
  const narrowed: SyncPage = {
    ...page,
    added: inItem(page.added),
    modified: inItem(page.modified),
    removed: inItem(page.removed),
  };
  return {
    page: narrowed,
    postedInPage,
    postedFromPending: await postedFromPending(em, item.userId, [...narrowed.added, ...narrowed.modified]),
  };
}

export interface ItemTransactionsQuery {
  item: PlaidItem;
  /** [from, before) on the transaction's date. */
  from: Date;
  before: Date;
  /** Only these of the Item's accounts (all of them when empty). */
  accountIds: readonly string[];
  count: number;
  offset: number;
}

/** `/transactions/get`: the Item's pending and posted transactions in a window, newest first, and their total. */
export async function listItemTransactions(
  em: EntityManager,
  query: ItemTransactionsQuery,
): Promise<{ transactions: Transaction[]; total: number; postedFromPending: ReadonlySet<string> }> {
  const wanted =
    query.accountIds.length > 0 ? query.item.accountIds.filter((id) => query.accountIds.includes(id)) : query.item.accountIds;
  if (wanted.length === 0) return { transactions: [], total: 0, postedFromPending: new Set() };
  const where = `user_id = ? and account_id = any(?::uuid[]) and status <> 'voided' and date >= ? and date < ?`;
  const params = [query.item.userId, uuidArray(wanted), query.from.toISOString(), query.before.toISOString()];
  const rows = await em.execute<(TransactionRow & { posted_from_pending: boolean })[]>(
    `select ${TRANSACTION_COLUMNS}, posted_from_pending from transactions where ${where} order by date desc, id desc limit ? offset ?`,
    [...params, query.count, query.offset],
  );
  const [count] = await em.execute<{ n: string }[]>(`select count(*) as n from transactions where ${where}`, params);
  return {
    transactions: rows.map(rowToTransaction),
    total: Number(count?.n ?? 0),
    postedFromPending: new Set(rows.filter((row) => row.posted_from_pending).map((row) => row.id)),
  };
}
