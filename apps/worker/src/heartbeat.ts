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
import { deleteHeartbeat, deleteStaleHeartbeats, releaseOrphanedJobs, selectLapsedWorkers, upsertHeartbeat } from './queries.ts';

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
    await upsertHeartbeat(pool, workerId);
    const dead = await selectLapsedWorkers(pool, staleAfterSeconds);
    if (dead.length > 0) {
      await utils.forceUnlockWorkers(dead);
      logger.warn({ workers: dead }, 'released the jobs of workers whose heartbeat lapsed');
    }
    const orphans = await releaseOrphanedJobs(pool, { workerId, staleAfterSeconds, activeJobIds: [...activeJobIds()] });
    if (orphans.length > 0) {
      logger.warn({ jobs: orphans }, 'released our own jobs whose completion was lost');
    }
    await deleteStaleHeartbeats(pool, Math.max(staleAfterSeconds * 10, 3600));
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
      await deleteHeartbeat(pool, workerId).catch(() => {});
    },
  };
}
