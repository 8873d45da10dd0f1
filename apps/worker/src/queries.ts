/**
 * The SQL of the worker's own bookkeeping (docs/architecture.md, "The schema"): the heartbeat
 * (heartbeat.ts), the outbox relay (relay.ts) and the transaction around a pooled client
 * (transaction.ts), one named function per statement on the worker's pg pool or a client of it.
 * The delivery task's statements are in delivery/queries.ts.
 */
import type { Row } from '@sandbank/db';
import type pg from 'pg';

// The heartbeat.

/** Writes (or refreshes) this worker's heartbeat row, stamped with the database's now. */
export async function upsertHeartbeat(pool: pg.Pool, workerId: string): Promise<void> {
  await pool.query(
    `insert into worker_heartbeats (worker_id, last_seen_at) values ($1, now())
       on conflict (worker_id) do update set last_seen_at = now()`,
    [workerId],
  );
}

/**
 * The pools holding a job locked more than `staleAfterSeconds` whose heartbeat lapsed for as long
 * (or that never wrote one): dead workers, whose jobs are to be released.
 */
export async function selectLapsedWorkers(pool: pg.Pool, staleAfterSeconds: number): Promise<string[]> {
  const { rows } = await pool.query<{ locked_by: string }>(
    `select distinct j.locked_by
         from graphile_worker._private_jobs j
        where j.locked_by is not null
          and j.locked_at < now() - make_interval(secs => $1)
          and not exists (select 1 from worker_heartbeats h
                           where h.worker_id = j.locked_by and h.last_seen_at >= now() - make_interval(secs => $1))`,
    [staleAfterSeconds],
  );
  return rows.map((row) => row.locked_by);
}

/**
 * Unlocks the jobs this live worker locked more than `staleAfterSeconds` ago and no longer runs
 * (not in `activeJobIds`); returns their ids.
 */
export async function releaseOrphanedJobs(
  pool: pg.Pool,
  { workerId, staleAfterSeconds, activeJobIds }: { workerId: string; staleAfterSeconds: number; activeJobIds: string[] },
): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `update graphile_worker._private_jobs set locked_by = null, locked_at = null
        where locked_by = $1 and locked_at < now() - make_interval(secs => $2) and id <> all ($3::bigint[])
        returning id`,
    [workerId, staleAfterSeconds, activeJobIds],
  );
  return rows.map((row) => row.id);
}

/** Removes the heartbeat rows not refreshed for `olderThanSeconds`. */
export async function deleteStaleHeartbeats(pool: pg.Pool, olderThanSeconds: number): Promise<void> {
  await pool.query(`delete from worker_heartbeats where last_seen_at < now() - make_interval(secs => $1)`, [olderThanSeconds]);
}

/** Removes this worker's heartbeat row (on a clean stop). */
export async function deleteHeartbeat(pool: pg.Pool, workerId: string): Promise<void> {
  await pool.query('delete from worker_heartbeats where worker_id = $1', [workerId]);
}

// The outbox relay.

/** An unrelayed event paired with one webhook it goes to (`webhook_id` null: no webhook wants it). */
export interface RelayPair {
  event_id: Row<'events'>['id'];
  webhook_id: Row<'webhooks'>['id'] | null;
  user_id: Row<'events'>['user_id'];
  /** A transaction event for a Plaid Item's webhook: a SYNC_UPDATES_AVAILABLE. */
  sync_update: boolean;
}

/**
 * Claims up to `batchSize` unrelayed events, oldest first, under row locks held to the caller's
 * commit (`for update skip locked`: concurrent relays take other events), each paired with every
 * subscribed active webhook of its owner (relay.ts says which), in event order.
 */
export async function claimUnrelayedEvents(client: pg.PoolClient, batchSize: number): Promise<RelayPair[]> {
  const { rows } = await client.query<RelayPair>(
    `select e.id as event_id, w.id as webhook_id, e.user_id,
              (w.plaid_item_id is not null and e.type <> 'plaid.webhook') as sync_update
         from (select id, type, user_id, payload, created_at from events
                where relayed_at is null
                order by created_at, id
                limit $1
                for update skip locked) e
         left join webhooks w
           on w.user_id = e.user_id and w.status = 'active' and w.deleted_at is null
          and case when w.plaid_item_id is null then e.type = any (w.events)
                   else exists (select 1 from plaid_items i
                                 where i.id = w.plaid_item_id and i.removed_at is null
                                   and case when e.type = 'plaid.webhook' then e.payload->>'item_id' = i.id::text
                                            else e.type = any (w.events)
                                                 and (e.payload->'transaction'->>'accountId')::uuid = any (i.account_ids) end)
              end
        order by e.created_at, e.id`,
    [batchSize],
  );
  return rows;
}

/**
 * In one statement: marks `eventIds` relayed and creates the deliveries (one per event and webhook;
 * an existing pair is left alone); returns the created ones.
 */
export async function insertDeliveriesAndMarkRelayed(
  client: pg.PoolClient,
  { deliveries, eventIds }: { deliveries: { id: string; webhook_id: string; event_id: string }[]; eventIds: string[] },
): Promise<Pick<Row<'webhook_deliveries'>, 'id' | 'webhook_id'>[]> {
  const { rows } = await client.query<Pick<Row<'webhook_deliveries'>, 'id' | 'webhook_id'>>(
    `with marked as (update events set relayed_at = now() where id = any ($4::uuid[]))
       insert into webhook_deliveries (id, webhook_id, event_id, next_attempt_at)
       select id, webhook_id, event_id, now() from unnest($1::uuid[], $2::uuid[], $3::uuid[]) as t (id, webhook_id, event_id)
       on conflict (webhook_id, event_id) do nothing
       returning id, webhook_id`,
    [deliveries.map((row) => row.id), deliveries.map((row) => row.webhook_id), deliveries.map((row) => row.event_id), eventIds],
  );
  return rows;
}

// The transaction around a pooled client.

export async function beginTransaction(client: pg.PoolClient): Promise<void> {
  await client.query('begin');
}

export async function commitTransaction(client: pg.PoolClient): Promise<void> {
  await client.query('commit');
}

export async function rollbackTransaction(client: pg.PoolClient): Promise<void> {
  await client.query('rollback');
}
