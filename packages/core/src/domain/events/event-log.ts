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
import type { EventType, WebhookEvent } from '@sandbank/schemas';
import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { decodeCursor, encodeCursor, Int8TextSchema } from '../../lib/cursor.ts';
import { toEvent } from '../../mappers/event.ts';
import {
  type LogColumns,
  type LogFilter,
  type LogPosition,
  selectLoggedEvent,
  selectLogRows,
  selectSnapshotXmin,
} from './queries.ts';

export type { LogPosition } from './queries.ts';
export { PLAID_WEBHOOK_EVENT, WEBHOOK_TEST_EVENT } from './queries.ts';
export const LOG_START: LogPosition = { txid: '0', seq: '0' };

export interface ReadLogParams<C extends keyof LogColumns> {
  userId: string;
  after: LogPosition;
  limit: number;
  /** Which events: the log's own (of some types, one transaction's, up to a position) or sync's. */
  filter: LogFilter;
  /** The columns to read besides the position: the whole event (`event`), its `id`, or what sync needs. */
  columns: C;
}

/** Up to `limit` of the user's events after `after`, in log order, each with its position. */
export async function readLog<C extends keyof LogColumns>(
  em: EntityManager,
  params: ReadLogParams<C>,
): Promise<(LogColumns[C] & LogPosition)[]> {
  return selectLogRows(em, params);
}

/** The horizon itself, as a position: every event before it is committed and readable. */
export async function logHorizon(em: EntityManager): Promise<LogPosition> {
  return { txid: (await selectSnapshotXmin(em)) ?? '0', seq: '0' };
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
  const filter = { kind: 'logged', types, transactionId } as const;
  const rows = await readLog(em, { userId, after: position, limit: limit + 1, filter, columns: 'event' });
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
  const row = await selectLoggedEvent(em, { userId, eventId });
  if (!row) throw notFound('Event');
  return toEvent(row);
}

const positionOf = (cursor: { t: string; s: string }): LogPosition => ({ txid: cursor.t, seq: cursor.s });

/** The position a cursor of this log stands for; 400 at `path` if it is not one we issued. */
export const positionFromCursor = (raw: string, path: string): LogPosition =>
  positionOf(decodeCursor(EventCursorSchema, raw, path));

/** The cursor that continues after `position`. */
export const cursorOf = (position: LogPosition): string => encodeLogCursor(position);
