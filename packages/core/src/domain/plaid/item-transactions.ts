/**
 * The reads the Plaid face needs for an Item's transactions. Sync is the domain's own
 * (`readSyncPage`, on the gap-free event log), narrowed to the Item's accounts; the face turns its
 * pages into Plaid's added/modified/removed. Plaid also needs to know which posted transactions were
 * pending first (they get a new id in Plaid), a fact the post transition records on the row.
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { rowToTransaction } from '../../mappers/transaction.ts';
import { readSyncPage, type SyncPage } from '../transactions/sync-transactions.ts';
import type { PlaidItem } from './item.ts';
import { countWindowTransactions, selectPostedFromPending, selectWindowTransactions } from './queries.ts';

export interface ItemSyncPage {
  page: SyncPage;
  /** Ids in the page that went pending → posted inside it (the client last saw them pending). */
  postedInPage: ReadonlySet<string>;
  /** Ids in the page of posted transactions that were pending first. */
  postedFromPending: ReadonlySet<string>;
}

async function postedFromPending(em: EntityManager, userId: string, transactions: Transaction[]): Promise<Set<string>> {
  const posted = transactions.filter((transaction) => transaction.status === 'posted').map((transaction) => transaction.id);
  if (posted.length === 0) return new Set();
  return new Set(await selectPostedFromPending(em, userId, posted));
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
  const window = { userId: query.item.userId, accountIds: wanted, from: query.from, before: query.before };
  const rows = await selectWindowTransactions(em, window, { count: query.count, offset: query.offset });
  const total = await countWindowTransactions(em, window);
  return {
    transactions: rows.map(rowToTransaction),
    total,
    postedFromPending: new Set(rows.filter((row) => row.posted_from_pending).map((row) => row.id)),
  };
}
