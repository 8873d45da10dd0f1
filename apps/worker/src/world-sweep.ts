/**
 * Child worlds whose TTL has passed are removed here, every `pollMs` (WORKER_WORLD_SWEEP_MS),
 * with all their data. The sweep removes whatever has expired whenever it runs, so a world that
 * expired while no worker ran goes at the next pass; several workers may sweep at once.
 */
// The subpath, not the package's index: that one loads the whole API (router, OpenAPI, limits).
import { sweepExpiredWorlds } from '@sandbank/core/world-sweep';
import type { Orm } from '@sandbank/db';
import type { Logger } from 'pino';
import { startPollLoop } from './poll-loop.ts';

export interface WorldSweepLoop {
  /** One sweep; resolves with how many worlds it removed. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startWorldSweepLoop({ orm, pollMs, logger }: { orm: Orm; pollMs: number; logger: Logger }): WorldSweepLoop {
  const runOnce = () => sweepExpiredWorlds(orm.em.fork());
  const loop = startPollLoop(pollMs, async () => {
    try {
      const removed = await runOnce();
      if (removed > 0) logger.info({ removed }, 'expired worlds removed');
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, 'removing expired worlds failed; retrying');
    }
    return false;
  });
  return { runOnce, stop: loop.stop };
}
