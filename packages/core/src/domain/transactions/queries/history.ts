/**
 * The SQL of transaction history (list-transactions.ts) and the list cache's stamps
 * (transaction-list-cache.ts) (docs/architecture.md, "The schema"): hot reads, each shape of the
 * statement a prepared statement named from its SQL (executeHot).
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import type { DateRange } from '../../../lib/date-range.ts';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../../mappers/transaction.ts';

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
