/**
 * The SQL of the event log (docs/architecture.md, "The schema"; the log's order: event-log.ts): one
 * named function per statement.
 */
import type { EntityManager } from '@sandbank/db';
import type { EventRow } from '@sandbank/schemas';

/** The type of the Plaid face's notifications in the events table (see domain/plaid/notifications.ts). */
export const PLAID_WEBHOOK_EVENT = 'plaid.webhook';
/** A webhook's test event (`POST /v1/webhooks/:id/test`): sent to that webhook only, not a world event. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** The events of the log: not the Plaid face's notifications nor test events, which only feed their deliveries. */
export const LOGGED_EVENTS = `type not in ('${PLAID_WEBHOOK_EVENT}', '${WEBHOOK_TEST_EVENT}')`;

/** Only transactions that can no longer commit: see event-log.ts. Every log read carries it. */
const BELOW_HORIZON = 'txid < pg_snapshot_xmin(pg_current_snapshot())';

/** A place in the log: after the event at (txid, seq). (0, 0) is before every event. */
export interface LogPosition {
  txid: string;
  seq: string;
}

export interface SelectLogParams {
  userId: string;
  after: LogPosition;
  limit: number;
  /** Extra conditions on `events` (with their params), e.g. a type filter. */
  where?: { sql: string; params: unknown[] } | undefined;
  /** The columns to read besides the position. */
  columns: string;
}

/** Up to `limit` of the user's events after `after`, below the horizon, in log order, each with its position. */
export async function selectLogRows<Row extends object>(
  em: EntityManager,
  { userId, after, limit, where, columns }: SelectLogParams,
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

/** The current snapshot's xmin (the log's horizon), as text; undefined only if no row came back. */
export async function selectSnapshotXmin(em: EntityManager): Promise<string | undefined> {
  const [row] = await em.execute<{ xmin: string }[]>('select pg_snapshot_xmin(pg_current_snapshot())::text as xmin');
  return row?.xmin;
}

/** One logged event of the user (not a Plaid notification nor a test event), or undefined. */
export async function selectLoggedEvent(
  em: EntityManager,
  { userId, eventId }: { userId: string; eventId: string },
): Promise<EventRow | undefined> {
  const [row] = await em.execute<EventRow[]>(
    `select id, type, created_at, payload from events where id = ? and user_id = ? and ${LOGGED_EVENTS}`,
    [eventId, userId],
  );
  return row;
}
