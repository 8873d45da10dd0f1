/**
 * Lists of transactions as the API sends them (`{ data, meta }` of the history and the pull), kept
 * while they are still true.
 *
 * A budgeting app asks for the same first page far more often than the account changes. The cache
 * keeps, per query, the last answer with its page's total and its rows' ids and versions (the
 * "stamps"). A query it has never answered is read whole, in one statement, as without a cache. A
 * query it has answered first asks PostgreSQL, in one statement and snapshot, whether the scope
 * exists, what the total is and what the stamps are now, without the rows: when they are the kept
 * ones, the kept answer is sent; otherwise the page is read whole and kept in its place.
 *
 * Why a kept answer is exact, not merely recent:
 * - a list is a pure function of its query, its total and its rows, and a row's API fields are a
 *   pure function of its id and version: the database refuses a change to any of those fields that
 *   does not raise the version (migration `20261124030000-transaction-version-raised`), and ids
 *   (UUIDv7) are never reused;
 * - the stamps come from the request's own snapshot, so a write committed before the request is
 *   always seen: a client reads its own writes, whichever API process answers;
 * - only committed rows are kept: inside a database transaction the cache is not used;
 * - when a page changes, the requests in flight that must read it again share one read, but only
 *   one issued after each of them arrived (`read`).
 *
 * A hit costs PostgreSQL the page's index scan but not its rows' text, and the API no row parsing,
 * mapping or JSON (bench/CHANGELOG.md, "The transaction list cache"). The kept answers are frozen and
 * shared by every request that meets them; `jsonOf` returns the JSON each was sent as.
 */
import type { EntityManager } from '@sandbank/db';
import { type ListMeta, listMeta, type Transaction } from '@sandbank/schemas';
import { LRUCache } from 'lru-cache';
import { readsReplica } from '../replication/read-routing.ts';
import { readTransactionPage, type TransactionPage } from './list-transactions.ts';
import { type ListTransactionsParams, selectPageStamps } from './queries/history.ts';

export interface TransactionList {
  data: Transaction[];
  meta: ListMeta;
}

interface Kept {
  /** The ticket of the read it came from: a read issued earlier that ends later does not replace it. */
  issued: number;
  total: number;
  stamps: string;
  list: TransactionList;
  json: Buffer;
}

/** What the cache holds at most, counted as its answers' JSON and keys (the objects take about twice that). */
const TRANSACTION_LIST_CACHE_BYTES = 8 * 1024 * 1024;

/** A whole read of a query under way, and when it was issued (a ticket: see `ticket`). */
interface Reading {
  issued: number;
  list: Promise<TransactionList | null>;
}

export class TransactionListCache {
  readonly #kept: LRUCache<string, Kept>;
  readonly #lookups = { hit: 0, stale: 0, new: 0 };
  readonly #reading = new Map<string, Reading>();
  #tickets = 0;
  #reads = 0;

  constructor(maxBytes = TRANSACTION_LIST_CACHE_BYTES) {
    this.#kept = new LRUCache({ maxSize: maxBytes, sizeCalculation: (kept, query) => kept.json.length + query.length });
  }

  /** Lists asked for: answered from the cache (`hit`), read again as they changed (`stale`) or as none was kept (`new`). */
  get lookups(): Readonly<Record<'hit' | 'stale' | 'new', number>> {
    return { ...this.#lookups };
  }

  get size(): number {
    return this.#kept.size;
  }

  /** Whole reads started (requests that shared one are not counted again). */
  get reads(): number {
    return this.#reads;
  }

  /** A number that orders a request's arrival against the reads issued before and after it. */
  ticket(): number {
    return ++this.#tickets;
  }

  /**
   * The list `read` returns, kept for `query`; or, when a read of `query` issued after `since` (a
   * request's ticket from its arrival) is under way, that read's list. Such a read began after the
   * request arrived, so its snapshot holds every write committed before the request: when a change
   * sends the requests in flight to read a page again, they share one read instead of each making
   * its own. A read issued before the request arrived is not shared: it may miss a write the
   * request must see.
   */
  async read(query: string, since: number, read: () => Promise<TransactionList | null>): Promise<TransactionList | null> {
    const running = this.#reading.get(query);
    if (running && running.issued > since) return running.list;
    this.#reads++;
    const issued = this.ticket();
    const reading: Reading = { issued, list: read().then((list) => list && this.keep(query, list, issued)) };
    this.#reading.set(query, reading);
    try {
      return await reading.list;
    } finally {
      if (this.#reading.get(query) === reading) this.#reading.delete(query);
    }
  }

  /** The answer kept for `query`, if its total and stamps are still these. */
  match(query: string, total: number, stamps: string): TransactionList | undefined {
    const kept = this.#kept.get(query);
    if (kept?.total === total && kept.stamps === stamps) {
      this.#lookups.hit++;
      return kept.list;
    }
    this.#lookups.stale++;
    return undefined;
  }

  /** Whether an answer to `query` is kept (counted as `new` when not). */
  has(query: string): boolean {
    const kept = this.#kept.has(query);
    if (!kept) this.#lookups.new++;
    return kept;
  }

  /**
   * Keeps `list`, read by a read issued at `issued`, as the answer to `query`, unless a later-issued
   * read's answer is kept already; returns it frozen, as every later match will.
   */
  keep(query: string, list: TransactionList, issued = this.ticket()): TransactionList {
    const frozen = deepFreeze(list);
    const json = Buffer.from(JSON.stringify(frozen));
    serialized.set(frozen, json);
    if ((this.#kept.peek(query)?.issued ?? 0) < issued) {
      this.#kept.set(query, { issued, total: frozen.meta.total, stamps: stampsOf(frozen.data), list: frozen, json });
    }
    return frozen;
  }
}

const stampsOf = (rows: readonly Transaction[]) => rows.map((row) => `${row.id}@${row.version}`).join(',');

/**
 * The list for `params`, from `cache` when the page has not changed since it was kept; null when
 * the scope is not found. Without a cache (direct calls in tests and scripts) or inside a database
 * transaction (whose writes may yet roll back), read as it is.
 */
export async function readTransactionList(
  em: EntityManager,
  params: ListTransactionsParams,
  cache: TransactionListCache | undefined,
): Promise<TransactionList | null> {
  if (!cache || em.isInTransaction()) return listFrom(params, await readTransactionPage(em, params));
  const arrived = cache.ticket();
  // A replica's read is never shared with a primary's: a request sent to the primary (the replica
  // lacked its caller's write) must not take a replica read's older snapshot (read-routing.ts).
  const query = (readsReplica(em) ? 'replica:' : '') + JSON.stringify(params);
  if (cache.has(query)) {
    const now = await selectPageStamps(em, params);
    if (!now) return null;
    const kept = cache.match(query, Number(now.total), now.stamps ?? '');
    if (kept) return kept;
  }
  // Read whole, in its own snapshot, and kept with the stamps of what it read: a write since the
  // stamps' statement may have changed them.
  return cache.read(query, arrived, async () => listFrom(params, await readTransactionPage(em, params)));
}

function listFrom(params: ListTransactionsParams, page: TransactionPage | null): TransactionList | null {
  return page && { data: page.items, meta: listMeta(params.page, params.limit, page.total) };
}

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
