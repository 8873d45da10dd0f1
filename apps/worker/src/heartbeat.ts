/**
 * Dead-worker recovery. graphile-worker leaves the jobs of a worker that died hard (kill -9, a
 * lost machine) locked for about 4 hours. Each worker process therefore keeps a heartbeat row
 * (its graphile-worker pool id, which is what `locked_by` holds) and, on every beat, releases the
 * jobs held by pools whose heartbeat has lapsed for `staleAfterSeconds` (or that never wrote
 * one) with `forceUnlockWorkers`, so they run again within about a minute. It also releases its
 * own orphans: jobs still locked by this live worker, long past the stale limit, that it no longer
 * runs (graphile-worker lost the write that should have completed or failed them to a database
 * outage; see connection-loss.ts). Our jobs use no named queues, so only the job lock is cleared.
 */
import type { WorkerUtils } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from 'pino';

export interface HeartbeatOptions {
  pool: pg.Pool;
  utils: WorkerUtils;
  /** The graphile-worker pool id of this process (`locked_by` of its jobs). */
  workerId: string;
  intervalSeconds: number;
  staleAfterSeconds: number;
  /** Ids of the jobs this worker is running now. */
  activeJobIds: () => Iterable<string>;
  logger: Logger;
}

export interface Heartbeat {
  /** One beat now: refresh our row, release dead workers' jobs and our own orphans. Returns the released worker ids. */
  beat(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startHeartbeat(options: HeartbeatOptions): Promise<Heartbeat> {
  const { pool, utils, workerId, intervalSeconds, staleAfterSeconds, activeJobIds, logger } = options;
  let running: Promise<unknown> = Promise.resolve();

  async function beat(): Promise<string[]> {
    await pool.query(
      `insert into worker_heartbeats (worker_id, last_seen_at) values ($1, now())
       on conflict (worker_id) do update set last_seen_at = now()`,
      [workerId],
    );
    const { rows } = await pool.query<{ locked_by: string }>(
      `select distinct j.locked_by
         from graphile_worker._private_jobs j
        where j.locked_by is not null
          and j.locked_at < now() - make_interval(secs => $1)
          and not exists (select 1 from worker_heartbeats h
                           where h.worker_id = j.locked_by and h.last_seen_at >= now() - make_interval(secs => $1))`,
      [staleAfterSeconds],
    );
    const dead = rows.map((row) => row.locked_by);
    if (dead.length > 0) {
      await utils.forceUnlockWorkers(dead);
      logger.warn({ workers: dead }, 'released the jobs of workers whose heartbeat lapsed');
    }
    const { rows: orphans } = await pool.query<{ id: string }>(
      `update graphile_worker._private_jobs set locked_by = null, locked_at = null
        where locked_by = $1 and locked_at < now() - make_interval(secs => $2) and id <> all ($3::bigint[])
        returning id`,
      [workerId, staleAfterSeconds, [...activeJobIds()]],
    );
    if (orphans.length > 0) {
      logger.warn({ jobs: orphans.map((row) => row.id) }, 'released our own jobs whose completion was lost');
    }
    await pool.query(`delete from worker_heartbeats where last_seen_at < now() - make_interval(secs => $1)`, [
      Math.max(staleAfterSeconds * 10, 3600),
    ]);
    return dead;
  }

  const tick = () => {
    running = beat().catch((error: unknown) => logger.error({ err: error }, 'heartbeat failed'));
  };
  await beat();
  const timer = setInterval(tick, intervalSeconds * 1000);
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await running;
      await pool.query('delete from worker_heartbeats where worker_id = $1', [workerId]).catch(() => {});
    },
  };
}
