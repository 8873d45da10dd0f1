/**
 * Transaction sync (SPEC §7), built on the gap-free event log.
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
 * Every cursor carries the user's `sync_epoch`; a sandbox reset bumps it (410 CURSOR_EXPIRED), and
 * the `accountId` it was issued for (another one is 400).
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { z } from 'zod';
import { AppError, notFound } from '../../errors.ts';
import { decodeCursor, encodeCursor, Int8TextSchema } from '../../lib/cursor.ts';
import { rowToTransaction, TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';
import { type LogPosition, logHorizon, readLog } from '../events/event-log.ts';

const SyncCursorSchema = z.discriminatedUnion('k', [
  z.strictObject({
    v: z.literal(1),
    k: z.literal('snapshot'),
    e: z.int().min(0),
    a: z.uuid().nullable(),
    /** The horizon fixed when the snapshot began: the log phase starts there. */
    h: Int8TextSchema,
    /** The last row handed out: (date, id). */
    d: z.iso.datetime({ precision: 3 }),
    i: z.uuid(),
  }),
  z.strictObject({
    v: z.literal(1),
    k: z.literal('log'),
    e: z.int().min(0),
    a: z.uuid().nullable(),
    t: Int8TextSchema,
    s: Int8TextSchema,
  }),
]);
type SyncCursor = z.infer<typeof SyncCursorSchema>;

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
  const { userId, limit } = params;
  const accountId = params.accountId ?? null;
  const cursor = params.cursor ? decodeCursor(SyncCursorSchema, params.cursor, 'cursor') : null;
  const [user] = await em.execute<{ sync_epoch: number; account_ok: boolean }[]>(
    'select sync_epoch, (?::uuid is null or exists (select 1 from accounts where id = ? and user_id = users.id)) as account_ok from users where id = ?',
    [accountId, accountId, userId],
  );
  if (!user) throw notFound('User');
  if (!user.account_ok) throw notFound('Account');
  const epoch = Number(user.sync_epoch);
  if (cursor && cursor.e !== epoch) {
    throw new AppError('CURSOR_EXPIRED', 'The sandbox was reset since this cursor was issued: sync again without a cursor');
  }
  if (cursor && cursor.a !== accountId) {
    throw new AppError('VALIDATION_ERROR', 'The cursor belongs to another accountId', {
      details: [{ path: 'cursor', message: 'Issued for another accountId: pass the same accountId as when syncing began' }],
    });
  }
  const scope = { userId, accountId, epoch };
  if (!cursor) return snapshotPage(em, scope, limit, (await logHorizon(em)).txid, null);
  if (cursor.k === 'snapshot') return snapshotPage(em, scope, limit, cursor.h, { date: cursor.d, id: cursor.i });
  return logPage(em, scope, limit, { txid: cursor.t, seq: cursor.s });
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
  const conditions = ['user_id = ?', "status <> 'voided'"];
  const params: unknown[] = [scope.userId];
  if (scope.accountId) {
    conditions.push('account_id = ?');
    params.push(scope.accountId);
  }
  if (after) {
    // Keyset on the history index (user_id | account_id, date desc, id desc).
    conditions.push('(date, id) < (?::timestamptz, ?::uuid)');
    params.push(after.date, after.id);
  }
  const rows = await em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where ${conditions.join(' and ')} order by date desc, id desc limit ?`,
    [...params, limit + 1],
  );
  const added = rows.slice(0, limit).map(rowToTransaction);
  const last = added.at(-1);
  if (rows.length > limit && last) {
    const next = { v: 1, k: 'snapshot', e: scope.epoch, a: scope.accountId, h: horizon, d: last.date, i: last.id };
    return { added, modified: [], removed: [], nextCursor: encodeCursor(next), hasMore: true };
  }
  const start = { txid: horizon, seq: '0' };
  const pending = await transactionEvents(em, scope, start, 1);
  return { added, modified: [], removed: [], nextCursor: logCursor(scope, start), hasMore: pending.length > 0 };
}

type TransactionEvent = { type: string; transaction_id: string } & LogPosition;

/** The transaction events after `after`, in log order (optionally one account's). */
function transactionEvents(em: EntityManager, scope: Scope, after: LogPosition, limit: number) {
  const where = scope.accountId
    ? { sql: "type like 'transaction.%' and payload->'transaction'->>'accountId' = ?", params: [scope.accountId] }
    : { sql: "type like 'transaction.%'", params: [] };
  return readLog<TransactionEvent>(em, {
    userId: scope.userId,
    after,
    limit,
    where,
    columns: "type, payload->'transaction'->>'id' as transaction_id",
  });
}

async function logPage(em: EntityManager, scope: Scope, limit: number, from: LogPosition): Promise<SyncPage> {
  const batchSize = Math.min(limit * 2 + 10, 1000);
  /** The page's transactions in order of first appearance (a Set keeps insertion order). */
  const order = new Set<string>();
  const createdHere = new Set<string>();
  let position = from;
  let hasMore = false;
  // Consume events until a (limit + 1)th distinct transaction would join the page.
  read: for (;;) {
    const batch = await transactionEvents(em, scope, position, batchSize);
    for (const event of batch) {
      if (!order.has(event.transaction_id) && order.size === limit) {
        hasMore = true;
        break read;
      }
      order.add(event.transaction_id);
      if (event.type === 'transaction.created') createdHere.add(event.transaction_id);
      position = { txid: event.txid, seq: event.seq };
    }
    if (batch.length < batchSize) break;
  }
  const page: SyncPage = { added: [], modified: [], removed: [], nextCursor: logCursor(scope, position), hasMore };
  if (order.size === 0) return page;
  const rows = await em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where user_id = ? and id in (${[...order].map(() => '?').join(', ')})`,
    [scope.userId, ...order],
  );
  const byId = new Map(rows.map((row) => [row.id, rowToTransaction(row)]));
  for (const id of order) {
    const transaction = byId.get(id);
    if (!transaction) continue; // removed by a reset racing this read; the next call answers 410
    if (transaction.status === 'voided') page.removed.push({ id, accountId: transaction.accountId });
    else if (createdHere.has(id)) page.added.push(transaction);
    else page.modified.push(transaction);
  }
  return page;
}

function logCursor(scope: Scope, position: LogPosition): string {
  const cursor: SyncCursor = { v: 1, k: 'log', e: scope.epoch, a: scope.accountId, t: position.txid, s: position.seq };
  return encodeCursor(cursor);
}
