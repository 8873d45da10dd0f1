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
const LOGGED_EVENTS = `type not in ('${PLAID_WEBHOOK_EVENT}', '${WEBHOOK_TEST_EVENT}')`;

/** Only transactions that can no longer commit: see event-log.ts. Every log read carries it. */
const BELOW_HORIZON = 'txid < pg_snapshot_xmin(pg_current_snapshot())';

/** A place in the log: after the event at (txid, seq). (0, 0) is before every event. */
export interface LogPosition {
  txid: string;
  seq: string;
}

/** Which events a log read returns: a typed filter, turned into SQL here and nowhere else. */
export type LogFilter =
  | {
      /** The log's own events (never the Plaid face's notifications nor test events). */
      kind: 'logged';
      /** Only these types. */
      types?: readonly string[] | undefined;
      /** One transaction's timeline: its events and the creation of its reversals. */
      transactionId?: string | undefined;
      /** Up to and including this position. */
      until?: LogPosition | undefined;
    }
  | {
      /** What transaction sync follows: transaction.* and scenario.applied. */
      kind: 'sync';
      /** Only the events about this account (its transactions; a scenario that created it). */
      accountId?: string | null | undefined;
    };

/** A sync reader's row: what it needs of an event, no payload. */
interface SyncLogRow {
  type: string;
  /** transaction.* events: the transaction it names. */
  transaction_id: string | null;
  /** scenario.applied: the accounts it created. */
  accounts: { id: string }[] | null;
  /** transaction.updated: the status before it (`pending` for a post). */
  previous_status: string | null;
}

/** The columns a log read returns, by name, and the row each gives. */
export interface LogColumns {
  event: EventRow;
  id: { id: string };
  sync: SyncLogRow;
}

const COLUMNS: Record<keyof LogColumns, string> = {
  event: 'id, type, created_at, payload',
  id: 'id',
  sync: `type, payload->'transaction'->>'id' as transaction_id,
         case when type = 'scenario.applied' then payload->'scenario'->'accounts' end as accounts,
         payload->'previous'->>'status' as previous_status`,
};

/**
 * The filter's conditions and their values. The transaction timeline's expressions are those of the
 * `events_transaction_idx` and `events_reversal_of_idx` indexes, so the read does not walk the whole log.
 */
function conditionsOf(filter: LogFilter): { sql: string; params: unknown[] } {
  if (filter.kind === 'sync') {
    if (!filter.accountId) return { sql: "(type like 'transaction.%' or type = 'scenario.applied')", params: [] };
    return {
      sql: `((type like 'transaction.%' and payload->'transaction'->>'accountId' = ?)
             or (type = 'scenario.applied' and payload->'scenario'->'accounts' @> ?::jsonb))`,
      params: [filter.accountId, JSON.stringify([{ id: filter.accountId }])],
    };
  }
  const parts = [LOGGED_EVENTS];
  const params: unknown[] = [];
  if (filter.types?.length) {
    parts.push(`type in (${filter.types.map(() => '?').join(', ')})`);
    params.push(...filter.types);
  }
  if (filter.transactionId) {
    parts.push("((payload #>> '{transaction,id}') = ? or (payload #>> '{transaction,reversalOf}') = ?)");
    params.push(filter.transactionId, filter.transactionId);
  }
  if (filter.until) {
    parts.push('(txid, seq) <= (?::xid8, ?::bigint)');
    params.push(filter.until.txid, filter.until.seq);
  }
  return { sql: parts.join(' and '), params };
}

export interface SelectLogParams<C extends keyof LogColumns> {
  userId: string;
  after: LogPosition;
  limit: number;
  filter: LogFilter;
  columns: C;
}

/** Up to `limit` of the user's events after `after`, below the horizon, in log order, each with its position. */
export async function selectLogRows<C extends keyof LogColumns>(
  em: EntityManager,
  { userId, after, limit, filter, columns }: SelectLogParams<C>,
): Promise<(LogColumns[C] & LogPosition)[]> {
  const where = conditionsOf(filter);
  return em.execute<(LogColumns[C] & LogPosition)[]>(
    // Qualified in ORDER BY: a bare `txid` would mean the text output column and sort '10' before '9'.
    `select ${COLUMNS[columns]}, txid::text as txid, seq::text as seq
       from events
      where user_id = ? and (txid, seq) > (?::xid8, ?::bigint) and ${BELOW_HORIZON} and ${where.sql}
      order by events.txid, events.seq
      limit ?`,
    [userId, after.txid, after.seq, ...where.params, limit],
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
