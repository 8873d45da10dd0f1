/**
 * The SQL of `/metrics` (apps/api/src/http/metrics.ts), read at scrape time (docs/architecture.md,
 * "The schema"): two aggregates, one named function each. They run on the ORM's connection, outside
 * any unit of work, as the scrape has no request context.
 */
import type { EntityManager, Row } from '@sandbank/db';

/** The connection under the ORM (`orm.em.getConnection()`). */
type Connection = ReturnType<EntityManager['getConnection']>;

type DeliveryStatusCount = Pick<Row<'webhook_deliveries'>, 'status'> & { count: string };

/** Webhook deliveries by status (pending, succeeded, failed), counts as text. */
export async function countDeliveriesByStatus(connection: Connection): Promise<DeliveryStatusCount[]> {
  return connection.execute<DeliveryStatusCount[]>('select status, count(*) as count from webhook_deliveries group by status');
}

/** graphile-worker's jobs by state, counts as text; no row if the queue's table answered none. */
export interface JobStateCounts {
  ready: string;
  scheduled: string;
  locked: string;
  failed: string;
}

export async function countJobsByState(connection: Connection): Promise<JobStateCounts | undefined> {
  const [row] = await connection.execute<JobStateCounts[]>(`
        select count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now()) as ready,
               count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now()) as scheduled,
               count(*) filter (where locked_at is not null) as locked,
               count(*) filter (where attempts >= max_attempts) as failed
        from graphile_worker.jobs`);
  return row;
}
