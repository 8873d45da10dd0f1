/**
 * The SQL of transactions (docs/architecture.md, "The schema"; the lifecycle's locking:
 * transaction-lock.ts): one named function per statement.
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import type { EventType, Transaction } from '@sandbank/schemas';
import type { DateRange } from '../../lib/date-range.ts';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';

/** One transaction of the user, by id, or undefined. */
export async function selectTransaction(
  em: EntityManager,
  userId: string,
  transactionId: string,
): Promise<TransactionRow | undefined> {
  const [row] = await em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where id = ? and user_id = ?`,
    [transactionId, userId],
  );
  return row;
}

/** The transaction of an account booked under an externalTxnId, or undefined. */
export async function selectByExternalTxnId(
  tx: EntityManager,
  accountId: string,
  externalTxnId: string,
): Promise<TransactionRow | undefined> {
  const [existing] = await tx.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where account_id = ? and external_txn_id = ?`,
    [accountId, externalTxnId],
  );
  return existing;
}

const LOCK = `
select ${TRANSACTION_COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ')}, t.user_id, t.reversed_amount, t.settle_at, t.expire_at,
       a.status as account_status, a.balance, a.held_amount
from transactions t join accounts a on a.id = t.account_id
where t.id = ? and t.user_id = ?
for update of t for no key update of a`;

export type LockedRow = TransactionRow & {
  user_id: string;
  reversed_amount: string | number;
  settle_at: Date | string | null;
  expire_at: Date | string | null;
  account_status: 'open' | 'closed';
  balance: string | number;
  held_amount: string | number;
};

/** Locks the user's transaction (FOR UPDATE) and then its account (FOR NO KEY UPDATE); undefined: no such transaction. */
export async function lockTransactionRow(
  tx: EntityManager,
  userId: string,
  transactionId: string,
): Promise<LockedRow | undefined> {
  const [found] = await tx.execute<LockedRow[]>(LOCK, [transactionId, userId]);
  return found;
}

/** The change that brought a transaction to a version, as its event recorded it. */
export interface RecordedChange {
  type: EventType;
  /** `transaction.updated`: the changed fields' old values and their names. */
  previous: Record<string, unknown> | null;
  changes: string[] | null;
}

// Writes to one transaction serialise on its row lock, so its events' (txid, seq) follow its versions;
// the newest-first walk of the user's log stops at the first match, the most recent change.
const CHANGE_TO_VERSION = `
select type, payload->'previous' as previous, payload->'changes' as changes
  from events
 where user_id = ? and payload->'transaction'->>'id' = ? and payload->'transaction'->>'version' = ?
 order by txid desc, seq desc
 limit 1`;

// The post that made a transaction posted: none for one booked posted (or a reversal).
const POST_OF_TRANSACTION = `
select type, payload->'previous' as previous, payload->'changes' as changes
  from events
 where user_id = ? and type = 'transaction.updated' and payload->'transaction'->>'id' = ?
   and payload->'previous'->>'status' = 'pending'
 order by txid desc, seq desc
 limit 1`;

/** The event that brought the transaction to `version`, or undefined. */
export async function selectChangeToVersion(
  tx: EntityManager,
  { userId, transactionId, version }: { userId: string; transactionId: string; version: number },
): Promise<RecordedChange | undefined> {
  const [change] = await tx.execute<RecordedChange[]>(CHANGE_TO_VERSION, [userId, transactionId, String(version)]);
  return change;
}

/** The post (pending → posted) of the transaction, or undefined. */
export async function selectPostOf(
  tx: EntityManager,
  userId: string,
  transactionId: string,
): Promise<RecordedChange | undefined> {
  const [post] = await tx.execute<RecordedChange[]>(POST_OF_TRANSACTION, [userId, transactionId]);
  return post;
}

const UPDATE = `
with txn as (
  update transactions
     set status = ?, amount = ?, posted_at = ?::timestamptz, version = ?, description = ?, merchant = ?, category = ?,
         posted_from_pending = posted_from_pending or (status = 'pending' and ? = 'posted'),
         settle_at = case when ? = 'pending' then settle_at end, expire_at = case when ? = 'pending' then expire_at end,
         updated_at = now()
   where id = ?
), account as (
  update accounts set balance = balance + ?, held_amount = held_amount + ?, transaction_count = transaction_count + ?
   where id = ?
)
insert into events (id, type, user_id, payload, created_at) values (?, ?, ?, ?::jsonb, ?::timestamptz)`;

/** The event a write records: its id, its user, its payload (JSON) and the world's instant. */
interface EventWrite {
  eventId: string;
  userId: string;
  payload: string;
  at: Date;
}

export interface TransitionWrite extends EventWrite {
  /** The transaction's new state. */
  next: TransactionRow;
  /** `next.posted_at` as an ISO string, or null. */
  postedAt: string | null;
  delta: { balance: number; held: number; count: number };
  eventType: EventType;
}

/** The transaction's new state, the account's deltas and the event, as one statement. */
export async function updateTransition(tx: EntityManager, w: TransitionWrite): Promise<void> {
  const { next, delta } = w;
  await tx.execute(UPDATE, [
    next.status,
    Number(next.amount),
    w.postedAt,
    Number(next.version),
    next.description,
    next.merchant,
    next.category,
    next.status,
    next.status,
    next.status,
    next.id,
    delta.balance,
    delta.held,
    delta.count,
    next.account_id,
    w.eventId,
    w.eventType,
    w.userId,
    w.payload,
    w.at.toISOString(),
  ]);
}

const BOOK_REVERSAL = `
with original as (
  update transactions set reversed_amount = reversed_amount + ?, updated_at = now() where id = ?
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw,
                            status, posted_at, merchant, category, reversal_of)
  values (?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?::jsonb, 'posted', ?::timestamptz, ?, ?, ?)
), account as (
  update accounts set balance = balance + ?, transaction_count = transaction_count + 1 where id = ?
)
insert into events (id, type, user_id, payload, created_at) values (?, 'transaction.created', ?, ?::jsonb, ?::timestamptz)`;

export interface ReversalWrite extends EventWrite {
  /** How much of the original this reversal gives back (positive). */
  magnitude: number;
  original: TransactionRow;
  reversal: Transaction;
  /** The reversal's signed amount. */
  amount: number;
}

/** The original's reversed amount, the reversal's row, the account's balance and the event, as one statement. */
export async function insertReversal(tx: EntityManager, w: ReversalWrite): Promise<void> {
  const { original, reversal } = w;
  await tx.execute(BOOK_REVERSAL, [
    w.magnitude,
    original.id,
    reversal.id,
    reversal.accountId,
    w.userId,
    reversal.externalTxnId,
    w.amount,
    reversal.currency,
    reversal.date,
    reversal.description,
    JSON.stringify(reversal.raw),
    reversal.postedAt,
    reversal.merchant,
    reversal.category,
    original.id,
    w.amount,
    original.account_id,
    w.eventId,
    w.userId,
    w.payload,
    w.at.toISOString(),
  ]);
}

// Transaction history (list-transactions.ts) and the list cache's stamps (transaction-list-cache.ts):
// hot reads, each shape of the statement a prepared statement named from its SQL (executeHot).

/** `status` of history and pull: pending and posted by default (what a budget shows), or one status, or all. */
export const STATUS_FILTERS = ['pending', 'posted', 'voided', 'all'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number] | undefined;

/**
 * How the page's `total` is found:
 * - `counter`: the accounts' `transaction_count` (pending and posted rows, kept by every statement
 *   that books or voids) minus the rows outside the range. Only for the default status. It counts
 *   few rows where a pull's window (the last 90 days by default) holds most of them; for an
 *   account's unfiltered history it counts none.
 * - `count`: `count(*)` of the rows that match.
 * - `none`: not needed (0).
 */
type TotalMethod = 'counter' | 'count' | 'none';

export interface ListTransactionsParams {
  /** One account of a user (nothing when the user does not own it), or every account of a user. */
  scope: { userId: string; accountId?: string };
  range: DateRange;
  page: number;
  limit: number;
  status?: StatusFilter;
  /** Rows whose description or merchant contains this text (any case), or whose amount is this many złoty (either sign). */
  search?: string;
  total: TotalMethod;
}

/**
 * The page statement with `columns` of each row (all of them, or the list cache's stamps), and its
 * values in the order their `?` appear (the total's, the page's, then the scope's): the scope's
 * row, its total and the page beside it. An empty page is one row of nulls, a scope not found no
 * row at all.
 */
function pageStatement(
  { scope, range, page, limit, status, search, total }: ListTransactionsParams,
  columns: string,
): { sql: string; values: unknown[] } {
  if (total === 'counter' && (status !== undefined || search !== undefined)) {
    throw new Error('the counters count the default status, unsearched, only');
  }
  // Each scope has its own index: (account_id, date desc, id desc) or (user_id, date desc, id desc).
  // `s` is the scope's row: the owned account, or the user.
  const byAccount = scope.accountId !== undefined;
  const owned = byAccount ? 'account_id = s.id' : 'user_id = s.id';
  const filters = filtersOf(range, status, search);
  const where = [owned, ...filters.sql].join(' and ');
  const values: unknown[] = [];
  let totalSql = '0';
  if (total === 'count') {
    totalSql = `(select count(*) from transactions where ${where})`;
    values.push(...filters.values);
  } else if (total === 'counter') {
    totalSql = byAccount
      ? 's.transaction_count'
      : '(select coalesce(sum(transaction_count), 0) from accounts where user_id = s.id)';
    if (range.from) {
      totalSql += ` - (select count(*) from transactions where ${owned} and status <> 'voided' and date < ?)`;
      values.push(range.from.toISOString());
    }
    if (range.before) {
      totalSql += ` - (select count(*) from transactions where ${owned} and status <> 'voided' and date >= ?)`;
      values.push(range.before.toISOString());
    }
  }
  values.push(...filters.values, limit, (page - 1) * limit, ...(byAccount ? [scope.accountId, scope.userId] : [scope.userId]));
  // `offset 0` keeps the total a subquery evaluated once: pulled up into the outer query, its count
  // subqueries ran once per row of the page (`loops=50`).
  const sql = `select c.total, p.* ${byAccount ? 'from accounts s' : 'from users s'}
    cross join lateral (select ${totalSql} as total offset 0) c
    left join lateral (select ${columns} from transactions
      where ${where} order by date desc, id desc limit ? offset ?) p on true
    where ${byAccount ? 's.id = ? and s.user_id = ?' : 's.id = ?'} order by p.date desc, p.id desc`;
  return { sql, values };
}

/** A search as an amount in złoty ("12,50", "-7", "1 234.5") → its magnitude in minor units, or undefined. */
function searchedAmount(search: string): number | undefined {
  const match = /^[+-]?(\d{1,13})(?:[.,](\d{1,2}))?$/.exec(search.replace(/[\s\u00a0]/g, ''));
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** `%`, `_` and `\` match themselves in a search, not as LIKE wildcards. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filtersOf(range: DateRange, status: StatusFilter, search?: string): { sql: string[]; values: unknown[] } {
  const sql: string[] = [];
  const values: unknown[] = [];
  if (search !== undefined) {
    const pattern = likePattern(search);
    const amount = searchedAmount(search);
    // Case folded by ICU, not by the database's locale: under `C` (the embedded server's) `ilike`
    // folds ASCII only, and `żab` would not find `Żabka`.
    const matches = (column: string) =>
      `lower(${column} collate "und-x-icu") like lower(?::text collate "und-x-icu") escape '\\'`;
    sql.push(`(${matches('description')} or ${matches('merchant')}${amount === undefined ? '' : ' or abs(amount) = ?'})`);
    values.push(pattern, pattern, ...(amount === undefined ? [] : [amount]));
  }
  if (status === undefined) sql.push(`status <> 'voided'`);
  else if (status !== 'all') {
    sql.push('status = ?');
    values.push(status);
  }
  if (range.from) {
    sql.push('date >= ?');
    values.push(range.from.toISOString());
  }
  if (range.before) {
    sql.push('date < ?');
    values.push(range.before.toISOString());
  }
  return { sql, values };
}

type PageRow = TransactionRow & { total: string | number };

/** One page and its total, in one statement: no row when the scope is not found, one row of nulls for an empty page. */
export async function selectTransactionPage(em: EntityManager, params: ListTransactionsParams): Promise<PageRow[]> {
  const { sql, values } = pageStatement(params, TRANSACTION_COLUMNS);
  return executeHot<PageRow>(em, { sql }, values);
}

export interface StampRow {
  total: string | number;
  /** `id@version` of each row of the page, in its order (as `stampsOf` in transaction-list-cache.ts); null for an empty page. */
  stamps: string | null;
}

/**
 * The page statement's total and stamps, as one row (no row: the scope was not found). The rows'
 * order is the page's; were it ever not, a kept answer would be missed, never a wrong one sent.
 */
function stampStatement(params: ListTransactionsParams): { sql: string; values: unknown[] } {
  const page = pageStatement(params, 'id, version, date');
  const sql = `select total, string_agg(id::text || '@' || version, ',' order by date desc, id desc) as stamps
     from (${page.sql}) page group by total`;
  return { sql, values: page.values };
}

/** The page's total and stamps, as one row; undefined when the scope is not found. */
export async function selectPageStamps(em: EntityManager, params: ListTransactionsParams): Promise<StampRow | undefined> {
  const stamps = stampStatement(params);
  const [now] = await executeHot<StampRow>(em, { sql: stamps.sql }, stamps.values);
  return now;
}

// Sync (sync-transactions.ts).

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
