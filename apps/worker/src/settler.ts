/**
 * Pending transactions fall due as time passes (`settleAfter` / `expireAfter`): this loop posts or
 * expires them through the same domain function the clock's advance calls, a batch at a time.
 * Several workers may run it at once: each transition locks its row and skips one that has moved
 * on, so every due transaction settles exactly once.
 */
import { settleDueTransactions } from '@sandbank/core';
import type { Orm } from '@sandbank/db';
import type { Logger } from 'pino';

const BATCH = 100;

export interface Settler {
  /** One pass over everything due now; resolves with how many moved. */
  runOnce(): Promise<{ settled: number; expired: number }>;
  stop(): Promise<void>;
}

export function startSettler({ orm, pollMs, logger }: { orm: Orm; pollMs: number; logger: Logger }): Settler {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const sleep = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, pollMs);
    });
  const runOnce = () => settleDueTransactions(orm.em.fork(), { until: new Date(), limit: BATCH });
  const loop = (async () => {
    while (!stopped) {
      let full = false;
      try {
        const moved = await runOnce();
        if (moved.settled + moved.expired > 0) logger.info(moved, 'pending transactions settled or expired');
        full = moved.settled + moved.expired >= BATCH;
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, 'settling pending transactions failed; retrying');
      }
      if (!full && !stopped) await sleep();
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
