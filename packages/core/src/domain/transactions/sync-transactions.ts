/**
 * Transaction sync (docs/concepts/events-and-sync.md), built on the gap-free event log.
 *
 * Why on the log: the log already gives one order in which every committed change appears
 * exactly once (see domain/events/event-log.ts), and every change of a transaction writes an
 * event in the same database transaction. So "what changed since my cursor" is "which
 * transactions the events after my position name", and the answer is their current rows (the
 * latest state, each at most once per page). No second change-tracking structure to keep right.
 *
 * Two phases, one opaque cursor:
 * - snapshot (no cursor given): the log's horizon H is fixed first (every transaction below it has
 *   finished), then the user's pending and posted transactions are paged as `added` by
 *   (date desc, id desc) — the history index. A row that changes while the pages are read has an
 *   event at or after H and comes again in the log phase; a row that does not change keeps its
 *   place, so the keyset walk sees it exactly once.
 * - log: from (H, 0) on, pages of events name transactions; each comes once per page in its
 *   current state: `removed` if voided, `added` if its `transaction.created` is in this page, else
 *   `modified`. Clients upsert `added` and `modified` by id and delete `removed`.
 *
 * A scenario apply writes its transactions in bulk under ONE `scenario.applied` event (docs/concepts/scenarios.md),
 * whose payload names the accounts it created. In the log phase that event stands for those rows:
 * it expands into the current rows of the scenario's transactions in those accounts (`raw.source`
 * "scenario": nothing else writes them), account by account in history order, as `added` (or
 * `removed` if voided since). Its rows can fill several pages: the cursor then keeps a place inside
 * the event (`x`: the account and the last (date, id) handed out), so no page exceeds `limit`.
 * Later changes to those rows have events of their own, after it. So an apply does not expire
 * cursors; only a reset does.
 *
 * Every cursor carries the user's `sync_epoch`; a sandbox reset bumps it (410 CURSOR_EXPIRED), and
 * the `accountId` it was issued for (another one is 400).
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { z } from 'zod';
import { AppError, notFound, worldGone } from '../../errors.ts';
import { decodeCursor, encodeCursor, Int8TextSchema } from '../../lib/cursor.ts';
import { isHoldable } from '../../lib/timestamps.ts';
import { rowToTransaction } from '../../mappers/transaction.ts';
import { type LogPosition, logHorizon, readLog } from '../events/event-log.ts';
import {
  selectScenarioEventAccounts,
  selectScenarioRows,
  selectSyncSnapshotRows,
  selectSyncUser,
  selectTransactionsByIds,
} from './queries/sync.ts';

/** A row's date as the cursor carries it; a forged one outside the holdable years is a malformed cursor. */
const CursorDateSchema = z.iso.datetime({ precision: 3 }).refine((value) => isHoldable(Date.parse(value)));

const SyncCursorSchema = z.discriminatedUnion('k', [
  z.strictObject({
    v: z.literal(1),
    k: z.literal('snapshot'),
    e: z.int().min(0),
    a: z.uuid().nullable(),
    /** The horizon fixed when the snapshot began: the log phase starts there. */
    h: Int8TextSchema,
    /** The last row handed out: (date, id). */
    d: CursorDateSchema,
    i: z.uuid(),
  }),
  z.strictObject({
    v: z.literal(1),
    k: z.literal('log'),
    e: z.int().min(0),
    a: z.uuid().nullable(),
    t: Int8TextSchema,
    s: Int8TextSchema,
    /** Inside the scenario.applied event AT (t, s), not after it: the last row handed out. */
    x: z.strictObject({ c: z.uuid(), d: CursorDateSchema, i: z.uuid() }).optional(),
  }),
]);
type SyncCursor = z.infer<typeof SyncCursorSchema>;

/** A place inside a scenario.applied event: after row (date, id) of account `accountId`. */
interface InsideScenario {
  accountId: string;
  date: string;
  id: string;
}

export interface SyncTransactionsParams {
  userId: string;
  /** Only this account's transactions (it must be the user's); the cursor remembers it. */
  accountId?: string;
  cursor?: string;
  limit: number;
}

export interface SyncPage {
  added: Transaction[];
  modified: Transaction[];
  removed: { id: string; accountId: string }[];
  nextCursor: string;
  hasMore: boolean;
}

export async function syncTransactions(em: EntityManager, params: SyncTransactionsParams): Promise<SyncPage> {
  return (await readSyncPage(em, params)).page;
}

/**
 * A sync page and which of its transactions went pending → posted inside it (by the events the page
 * covers; none in the snapshot phase). Faces whose protocol gives a posted transaction a new id
 * (Plaid) need to know whether the client last saw it pending.
 */
export async function readSyncPage(
  em: EntityManager,
  params: SyncTransactionsParams,
): Promise<{ page: SyncPage; postedInPage: ReadonlySet<string> }> {
  const { userId, limit } = params;
  const accountId = params.accountId ?? null;
  const cursor = params.cursor ? decodeCursor(SyncCursorSchema, params.cursor, 'cursor') : null;
  const user = await selectSyncUser(em, { userId, accountId });
  if (!user) throw worldGone();
  // A reset expires every cursor issued before it, one for an account the reset removed included:
  // the client must start over (410), not conclude the account is gone for good (404).
  const epoch = Number(user.sync_epoch);
  if (cursor && cursor.e !== epoch) {
    throw new AppError('CURSOR_EXPIRED', 'The sandbox was reset since this cursor was issued: sync again without a cursor');
  }
  if (!user.account_ok) throw notFound('Account');
  if (cursor && cursor.a !== accountId) {
    throw new AppError('VALIDATION_ERROR', 'The cursor belongs to another accountId', {
      details: [{ path: 'cursor', message: 'Issued for another accountId: pass the same accountId as when syncing began' }],
    });
  }
  const scope = { userId, accountId, epoch };
  const none: ReadonlySet<string> = new Set();
  if (!cursor) return { page: await snapshotPage(em, scope, limit, (await logHorizon(em)).txid, null), postedInPage: none };
  if (cursor.k === 'snapshot') {
    return { page: await snapshotPage(em, scope, limit, cursor.h, { date: cursor.d, id: cursor.i }), postedInPage: none };
  }
  const inside = cursor.x ? { accountId: cursor.x.c, date: cursor.x.d, id: cursor.x.i } : null;
  return logPage(em, scope, limit, { txid: cursor.t, seq: cursor.s }, inside);
}

interface Scope {
  userId: string;
  accountId: string | null;
  epoch: number;
}

async function snapshotPage(
  em: EntityManager,
  scope: Scope,
  limit: number,
  horizon: string,
  after: { date: string; id: string } | null,
): Promise<SyncPage> {
  const rows = await selectSyncSnapshotRows(em, { userId: scope.userId, accountId: scope.accountId, after, take: limit + 1 });
  const added = rows.slice(0, limit).map(rowToTransaction);
  const last = added.at(-1);
  if (rows.length > limit && last) {
    const next = { v: 1, k: 'snapshot', e: scope.epoch, a: scope.accountId, h: horizon, d: last.date, i: last.id };
    return { added, modified: [], removed: [], nextCursor: encodeCursor(next), hasMore: true };
  }
  const start = { txid: horizon, seq: '0' };
  const pending = await syncEvents(em, scope, start, 1);
  return { added, modified: [], removed: [], nextCursor: logCursor(scope, start), hasMore: pending.length > 0 };
}

/** The events sync follows after `after`, in log order: transaction.* and scenario.applied (optionally one account's). */
function syncEvents(em: EntityManager, scope: Scope, after: LogPosition, limit: number) {
  return readLog(em, {
    userId: scope.userId,
    after,
    limit,
    filter: { kind: 'sync', accountId: scope.accountId },
    columns: 'sync',
  });
}

/** What one page has taken so far: its transactions in order of first appearance (a Set keeps insertion order). */
interface PageSoFar {
  order: Set<string>;
  createdHere: Set<string>;
  postedHere: Set<string>;
}

async function logPage(
  em: EntityManager,
  scope: Scope,
  limit: number,
  from: LogPosition,
  resume: InsideScenario | null,
): Promise<{ page: SyncPage; postedInPage: ReadonlySet<string> }> {
  const taken: PageSoFar = { order: new Set(), createdHere: new Set(), postedHere: new Set() };
  const { position, inside, hasMore } = await fillPage(em, scope, limit, taken, from, resume);
  const page: SyncPage = { added: [], modified: [], removed: [], nextCursor: logCursor(scope, position, inside), hasMore };
  const done = { page, postedInPage: taken.postedHere };
  if (taken.order.size === 0) return done;
  const ids = [...taken.order];
  const rows = await selectTransactionsByIds(em, scope.userId, ids);
  const byId = new Map(rows.map((row) => [row.id, rowToTransaction(row)]));
  for (const id of ids) {
    const transaction = byId.get(id);
    if (!transaction) continue; // removed by a reset racing this read; the next call answers 410
    if (transaction.status === 'voided') page.removed.push({ id, accountId: transaction.accountId });
    else if (taken.createdHere.has(id)) page.added.push(transaction);
    else page.modified.push(transaction);
  }
  return done;
}

/**
 * Takes transactions into the page from the log after `from` (or from inside the scenario event at
 * `from`, with `resume`) until a (limit + 1)th distinct one would join. Returns where the page ends:
 * after the event at `position`, or inside the scenario event there.
 */
async function fillPage(
  em: EntityManager,
  scope: Scope,
  limit: number,
  taken: PageSoFar,
  from: LogPosition,
  resume: InsideScenario | null,
): Promise<{ position: LogPosition; inside: InsideScenario | null; hasMore: boolean }> {
  if (resume) {
    const inside = await expandScenario(em, scope, limit, taken, await scenarioAccounts(em, scope, from), resume);
    if (inside) return { position: from, inside, hasMore: true };
  }
  const batchSize = Math.min(limit * 2 + 10, 1000);
  let position = from;
  for (;;) {
    const batch = await syncEvents(em, scope, position, batchSize);
    for (const event of batch) {
      const at = { txid: event.txid, seq: event.seq };
      if (event.type === 'scenario.applied') {
        if (taken.order.size === limit) return { position, inside: null, hasMore: true };
        const inside = await expandScenario(em, scope, limit, taken, accountsInScope(scope, event.accounts), null);
        if (inside) return { position: at, inside, hasMore: true };
      } else {
        const id = event.transaction_id ?? '';
        if (!taken.order.has(id) && taken.order.size === limit) return { position, inside: null, hasMore: true };
        taken.order.add(id);
        if (event.type === 'transaction.created') taken.createdHere.add(id);
        if (event.type === 'transaction.updated' && event.previous_status === 'pending') taken.postedHere.add(id);
      }
      position = at;
    }
    if (batch.length < batchSize) return { position, inside: null, hasMore: false };
  }
}

const accountsInScope = (scope: Scope, accounts: { id: string }[] | null): string[] =>
  (accounts ?? []).map((account) => account.id).filter((id) => !scope.accountId || id === scope.accountId);

/** The accounts of the scenario.applied event at `at` (in scope); none if it is gone. */
async function scenarioAccounts(em: EntityManager, scope: Scope, at: LogPosition): Promise<string[]> {
  return accountsInScope(scope, await selectScenarioEventAccounts(em, scope.userId, at));
}

/**
 * Adds a scenario's transactions to the page, account by account in history order (date desc,
 * id desc: the history index), from `start` on. Returns where it stopped when the page filled
 * before the event's rows ended (the next page goes on from there), or null when they all fit.
 */
async function expandScenario(
  em: EntityManager,
  scope: Scope,
  limit: number,
  taken: PageSoFar,
  accountIds: string[],
  start: InsideScenario | null,
): Promise<InsideScenario | null> {
  let last = start;
  const first = start ? accountIds.indexOf(start.accountId) : 0;
  for (const accountId of accountIds.slice(Math.max(first, 0))) {
    let after = last?.accountId === accountId ? { date: last.date, id: last.id } : null;
    for (;;) {
      const room = limit - taken.order.size;
      const rows = await selectScenarioRows(em, { accountId, userId: scope.userId, after, take: room + 1 });
      for (const row of rows) {
        if (!taken.order.has(row.id)) {
          // The page is full and this event has more: stop after the last row handed out (callers
          // start an event only with room in the page, so there is one).
          if (taken.order.size === limit) {
            if (!last) throw new Error('a scenario event was expanded into a full page');
            return last;
          }
          taken.order.add(row.id);
          taken.createdHere.add(row.id);
        }
        after = { date: new Date(row.date).toISOString(), id: row.id };
        last = { accountId, ...after };
      }
      if (rows.length <= room) break;
    }
  }
  return null;
}

function logCursor(scope: Scope, position: LogPosition, inside: InsideScenario | null = null): string {
  const cursor: SyncCursor = {
    v: 1,
    k: 'log',
    e: scope.epoch,
    a: scope.accountId,
    t: position.txid,
    s: position.seq,
    ...(inside ? { x: { c: inside.accountId, d: inside.date, i: inside.id } } : {}),
  };
  return encodeCursor(cursor);
}
