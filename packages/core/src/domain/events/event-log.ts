/**
 * The gap-free event log (docs/concepts/events-and-sync.md): a user's events in one order that never changes once read, so
 * a reader following `nextCursor` sees every committed event exactly once.
 *
 * Why not order by `created_at` or a sequence alone: both are taken before commit, and
 * transactions commit in any order. A reader that saw seq 11 (committed) may not yet see seq 10
 * (still running); its cursor passes 10, which then commits and is never read.
 *
 * The order used here is (txid, seq): `txid` is the writing transaction's id (`pg_current_xact_id()`,
 * a column default, so every writer stays unchanged), `seq` orders one transaction's events. A
 * read returns only events with `txid < pg_snapshot_xmin(pg_current_snapshot())`: xmin is the
 * oldest transaction id still running when the statement's snapshot was taken, so every
 * transaction below it has finished — its events are visible to this very statement (committed)
 * or never will be (rolled back). Nothing can later appear below the horizon, and every event
 * that appears later sits at a txid ≥ this xmin > the cursor. xmin only grows (new transactions
 * get newer ids), so successive reads never move the horizon back. `pg_current_snapshot()`
 * inside the statement is the statement's own snapshot, so the horizon and the rows read agree.
 *
 * The price: an event waits for every older transaction still running (cluster-wide) to finish
 * before it is served. Booking statements last milliseconds; a long transaction delays the log
 * (never loses anything) until it ends.
 */
import type { EntityManager } from '@sandbank/db';
import type { EventRow, EventType, WebhookEvent } from '@sandbank/schemas';
import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { decodeCursor, encodeCursor, Int8TextSchema } from '../../lib/cursor.ts';
import { toEvent } from '../../mappers/event.ts';

/** A place in the log: after the event at (txid, seq). (0, 0) is before every event. */
export interface LogPosition {
  txid: string;
  seq: string;
}

/** The type of the Plaid face's notifications in the events table (see domain/plaid/notifications.ts). */
export const PLAID_WEBHOOK_EVENT = 'plaid.webhook';
/** A webhook's test event (`POST /v1/webhooks/:id/test`): sent to that webhook only, not a world event. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** The events of the log: not the Plaid face's notifications nor test events, which only feed their deliveries. */
const LOGGED_EVENTS = `type not in ('${PLAID_WEBHOOK_EVENT}', '${WEBHOOK_TEST_EVENT}')`;
export const LOG_START: LogPosition = { txid: '0', seq: '0' };

/** Only transactions that can no longer commit: see the header. Every log read carries it. */
const BELOW_HORIZON = 'txid < pg_snapshot_xmin(pg_current_snapshot())';

export interface ReadLogParams {
  userId: string;
  after: LogPosition;
  limit: number;
  /** Extra conditions on `events` (with their params), e.g. a type filter. */
  where?: { sql: string; params: unknown[] };
  /** The columns to read besides the position; the whole event by default. */
  columns?: string;
}

/** Up to `limit` of the user's events after `after`, in log order, each with its position. */
export async function readLog<Row extends object = EventRow>(
  em: EntityManager,
  { userId, after, limit, where, columns = 'id, type, created_at, payload' }: ReadLogParams,
): Promise<(Row & LogPosition)[]> {
  return em.execute<(Row & LogPosition)[]>(
    // Qualified in ORDER BY: a bare `txid` would mean the text output column and sort '10' before '9'.
    `select ${columns}, txid::text as txid, seq::text as seq
       from events
      where user_id = ? and (txid, seq) > (?::xid8, ?::bigint) and ${BELOW_HORIZON}${where ? ` and ${where.sql}` : ''}
      order by events.txid, events.seq
      limit ?`,
    [userId, after.txid, after.seq, ...(where?.params ?? []), limit],
  );
}

/** The horizon itself, as a position: every event before it is committed and readable. */
export async function logHorizon(em: EntityManager): Promise<LogPosition> {
  const [row] = await em.execute<{ xmin: string }[]>('select pg_snapshot_xmin(pg_current_snapshot())::text as xmin');
  return { txid: row?.xmin ?? '0', seq: '0' };
}

const EventCursorSchema = z.strictObject({ v: z.literal(1), t: Int8TextSchema, s: Int8TextSchema });

const encodeLogCursor = (position: LogPosition) => encodeCursor({ v: 1, t: position.txid, s: position.seq });

export interface ListEventsParams {
  userId: string;
  after?: string;
  types?: EventType[];
  /** Only the events about this transaction and the creation of its reversals. */
  transactionId?: string | undefined;
  limit: number;
}

export interface EventPage {
  events: WebhookEvent[];
  nextCursor: string;
  hasMore: boolean;
}

export async function listEvents(
  em: EntityManager,
  { userId, after, types, transactionId, limit }: ListEventsParams,
): Promise<EventPage> {
  const position = after ? positionFromCursor(after, 'after') : LOG_START;
  const where = transactionFilter(logFilter(types), transactionId);
  const rows = await readLog(em, { userId, after: position, limit: limit + 1, where });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map(toEvent),
    // An empty page hands the same position back: the reader keeps it and asks again later.
    nextCursor: encodeLogCursor(last ? { txid: last.txid, seq: last.seq } : position),
    hasMore: rows.length > limit,
  };
}

/** One of the caller's events; another user's (or a missing) one is 404. */
export async function getEvent(em: EntityManager, { userId, eventId }: { userId: string; eventId: string }) {
  const [row] = await em.execute<EventRow[]>(
    `select id, type, created_at, payload from events where id = ? and user_id = ? and ${LOGGED_EVENTS}`,
    [eventId, userId],
  );
  if (!row) throw notFound('Event');
  return toEvent(row);
}

const positionOf = (cursor: { t: string; s: string }): LogPosition => ({ txid: cursor.t, seq: cursor.s });

/** The position a cursor of this log stands for; 400 at `path` if it is not one we issued. */
export const positionFromCursor = (raw: string, path: string): LogPosition =>
  positionOf(decodeCursor(EventCursorSchema, raw, path));

/** The cursor that continues after `position`. */
export const cursorOf = (position: LogPosition): string => encodeLogCursor(position);

/** The log's events (world events only), of the given kinds if any. */
export function logFilter(types?: readonly string[]): { sql: string; params: unknown[] } {
  const kinds = types?.length ? ` and type in (${types.map(() => '?').join(', ')})` : '';
  return { sql: `${LOGGED_EVENTS}${kinds}`, params: [...(types ?? [])] };
}

/**
 * Narrows a filter to one transaction's timeline: the events whose transaction is it, and the
 * creation of its reversals. The expressions are those of the `events_transaction_idx` and
 * `events_reversal_of_idx` indexes, so the read does not walk the whole log.
 */
function transactionFilter(filter: { sql: string; params: unknown[] }, transactionId?: string) {
  if (!transactionId) return filter;
  return {
    sql: `${filter.sql} and ((payload #>> '{transaction,id}') = ? or (payload #>> '{transaction,reversalOf}') = ?)`,
    params: [...filter.params, transactionId, transactionId],
  };
}
