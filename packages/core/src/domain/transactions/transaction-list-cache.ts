/**
 * Lists of transactions as the API sends them (`{ data, meta }` of the history and the pull), kept
 * while they are still true.
 *
 * A budgeting app asks for the same first page far more often than the account changes. Every
 * request still asks PostgreSQL, in one statement and one snapshot: does the scope exist, what is
 * the total, and which rows are on the page, as each row's id and version (its "stamp"), without the
 * rows themselves. When the same query met the same total and stamps before, the answer is the one
 * built then; otherwise the page is read whole, built, and kept under its own stamps.
 *
 * Why that answer is exact, not merely recent:
 * - a list is a pure function of its query, its total and its rows, and a row's API fields are a
 *   pure function of its id and version: the database refuses a change to any of those fields that
 *   does not raise the version (migration `20261124030000-transaction-version-raised`), and ids
 *   (UUIDv7) are never reused;
 * - the stamps come from the request's own snapshot, so a write committed before the request is
 *   always seen: a client reads its own writes, whichever API process answers.
 *
 * A hit costs PostgreSQL the page's index scan but not its rows' text, and the API no row parsing,
 * mapping or JSON (bench/README.md, "The transaction list cache"). The kept answers are frozen and
 * shared by every request that meets them; `jsonOf` returns the JSON each was sent as.
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import { type ListMeta, listMeta, type Transaction } from '@sandbank/schemas';
import { LRUCache } from 'lru-cache';
import { type ListTransactionsParams, pageStatement, pageValues, readTransactionPage } from './list-transactions.ts';

export interface TransactionList {
  data: Transaction[];
  meta: ListMeta;
}

interface Kept {
  list: TransactionList;
  json: Buffer;
}

/** What the cache holds at most, counted as its answers' JSON (the objects take about twice that). */
const TRANSACTION_LIST_CACHE_BYTES = 8 * 1024 * 1024;

export type ListLookup = 'hit' | 'miss';

export class TransactionListCache {
  readonly #kept: LRUCache<string, Kept>;
  #observer: ((lookup: ListLookup) => void) | undefined;

  constructor(maxBytes = TRANSACTION_LIST_CACHE_BYTES) {
    this.#kept = new LRUCache({ maxSize: maxBytes, sizeCalculation: (kept, key) => kept.json.length + key.length });
  }

  /** Told of every lookup (the API's `/metrics` counts them). */
  observe(observer: (lookup: ListLookup) => void): void {
    this.#observer = observer;
  }

  get size(): number {
    return this.#kept.size;
  }

  get(key: string): TransactionList | undefined {
    const list = this.#kept.get(key)?.list;
    this.#observer?.(list ? 'hit' : 'miss');
    return list;
  }

  keep(key: string, list: TransactionList): TransactionList {
    const frozen = deepFreeze(list);
    const json = Buffer.from(JSON.stringify(frozen));
    serialized.set(frozen, json);
    this.#kept.set(key, { list: frozen, json });
    return frozen;
  }
}

interface StampRow {
  total: string | number;
  /** `id@version` of each row of the page, in its order; null for an empty page. */
  stamps: string | null;
}

/**
 * The page statement's total and stamps, as one row (no row: the scope was not found). The rows'
 * order is the page's; were it ever not, a kept answer would be missed, never a wrong one sent.
 */
const stampStatement = (params: ListTransactionsParams) =>
  `select total, string_agg(id::text || '@' || version, ',' order by date desc, id desc) as stamps
     from (${pageStatement(params, 'id, version, date')}) page group by total`;

/**
 * The list for `params`, from `cache` when the page has not changed since it was kept; null when
 * the scope is not found. Without a cache (direct calls in tests and scripts), read as it is.
 */
export async function readTransactionList(
  em: EntityManager,
  params: ListTransactionsParams,
  cache: TransactionListCache | undefined,
): Promise<TransactionList | null> {
  if (!cache) return listOf(params, await readTransactionPage(em, params));
  const query = JSON.stringify(params);
  const [found] = await executeHot<StampRow>(em, { sql: stampStatement(params) }, pageValues(params));
  if (!found) return null;
  const kept = cache.get(keyOf(query, found.total, found.stamps ?? ''));
  if (kept) return kept;
  // Read whole, in its own snapshot, and kept under the stamps of what it read: a write between the
  // two statements may have changed them.
  const list = listOf(params, await readTransactionPage(em, params));
  if (!list) return null;
  const stamps = list.data.map((transaction) => `${transaction.id}@${transaction.version}`).join(',');
  return cache.keep(keyOf(query, list.meta.total, stamps), list);
}

function listOf(params: ListTransactionsParams, page: Awaited<ReturnType<typeof readTransactionPage>>) {
  return page && { data: page.items, meta: listMeta(params.page, params.limit, page.total) };
}

const keyOf = (query: string, total: string | number, stamps: string) => `${query}\n${total}\n${stamps}`;

const serialized = new WeakMap<object, Buffer>();

/** The JSON of a response body; for an answer the cache keeps, the bytes it was kept with (not encoded again). */
export function jsonOf(body: unknown): string | Buffer {
  return (typeof body === 'object' && body !== null && serialized.get(body)) || JSON.stringify(body);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
