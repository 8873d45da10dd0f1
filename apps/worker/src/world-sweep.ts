/**
 * Child worlds whose TTL has passed are removed here, every `pollMs` (WORKER_WORLD_SWEEP_MS),
 * with all their data. The sweep removes whatever has expired whenever it runs, so a world that
 * expired while no worker ran goes at the next pass; several workers may sweep at once.
 */
// The subpath, not the package's index: that one loads the whole API (router, OpenAPI, limits).
import { sweepExpiredWorlds } from '@sandbank/core/world-sweep';
import type { Orm } from '@sandbank/db';
import type { Logger } from 'pino';

export interface WorldSweepLoop {
  /** One sweep; resolves with how many worlds it removed. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startWorldSweepLoop({ orm, pollMs, logger }: { orm: Orm; pollMs: number; logger: Logger }): WorldSweepLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const runOnce = () => sweepExpiredWorlds(orm.em.fork());
  const loop = (async () => {
    while (!stopped) {
      try {
        const removed = await runOnce();
        if (removed > 0) logger.info({ removed }, 'expired worlds removed');
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, 'removing expired worlds failed; retrying');
      }
      if (!stopped) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, pollMs);
        });
      }
    }
  })();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
