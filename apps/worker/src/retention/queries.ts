/**
 * The SQL of attempt retention (attempt-retention.ts), one named function per statement, on the
 * worker's pg pool (or one of its clients).
 */
import type pg from 'pg';

/** A pool or a checked-out client: the statement runs as its own transaction on a pool. */
type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * Clears the recorded request and response of up to `batchSize` attempts that started more than
 * `retentionHours` ago, oldest first, and stamps when; returns how many it cleared.
 *
 * Retention runs on real time — the database's `now()` against `started_at`, the real moment the
 * request went out — never a world's clock: this is operational storage, and a world whose clock
 * was advanced a year must not lose last minute's exchanges (nor keep them forever when its clock
 * stands still).
 *
 * Bounded and concurrent: the `limit` keeps each statement (and the row locks it holds) short, and
 * `for update skip locked` makes a second worker running the same statement take other rows instead
 * of waiting, so two runs never block each other or deadlock. A row another run cleared meanwhile
 * is re-checked against `request_url is not null` under its lock (READ COMMITTED) and dropped, so
 * no attempt is cleared, or counted, twice. A cleared attempt leaves the partial index
 * `webhook_delivery_attempts_exchange_kept_idx`, which this search walks in `started_at` order.
 */
export async function clearExpiredAttemptExchanges(
  db: Queryable,
  { retentionHours, batchSize }: { retentionHours: number; batchSize: number },
): Promise<number> {
  const { rowCount } = await db.query(
    `with expired as (
       select id from webhook_delivery_attempts
        where request_url is not null and started_at < now() - make_interval(hours => $1)
        order by started_at
        limit $2
        for update skip locked
     )
     update webhook_delivery_attempts a
        set request_url = null, request_headers = null, request_body = null,
            response_status = null, response_headers = null, response_body = null, response_body_truncated = false,
            exchange_removed_at = now()
       from expired
      where a.id = expired.id`,
    [retentionHours, batchSize],
  );
  return rowCount ?? 0;
}
