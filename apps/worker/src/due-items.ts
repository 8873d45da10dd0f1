/**
 * Items fall due as wall time passes (docs/concepts/clock-and-schedules.md: the clock keeps moving): schedule runs, pending
 * transactions that settle or expire, and payments' steps on the clearing calendar (docs/concepts/payments.md). This loop fires them through the same domain function the
 * clock's advance calls, world by world, each up to its own now. Several workers may run it at
 * once: a world is worked on under its clock lock, and a busy world is skipped (its holder fires).
 */
// The subpath, not the package's index: that one loads the whole API (router, OpenAPI, limits).
import { fireDueItemsEverywhere } from '@sandbank/core/due-items';
import type { Orm } from '@sandbank/db';
import type { Logger } from 'pino';
import { startPollLoop } from './poll-loop.ts';

/** Worlds per pass; a full pass goes again at once. */
const WORLDS_PER_PASS = 50;

export interface DueItemsLoop {
  /** One pass over every world with something due now; resolves with what fired. */
  runOnce(): Promise<{ scheduled: number; settled: number; expired: number; payments: number; worlds: number }>;
  stop(): Promise<void>;
}

export function startDueItemsLoop({ orm, pollMs, logger }: { orm: Orm; pollMs: number; logger: Logger }): DueItemsLoop {
  const runOnce = async () => {
    const { events: _, ...fired } = await fireDueItemsEverywhere(orm.em.fork(), { worlds: WORLDS_PER_PASS });
    return fired;
  };
  const loop = startPollLoop(pollMs, async () => {
    try {
      const fired = await runOnce();
      if (fired.worlds > 0) logger.info(fired, 'due items fired');
      return fired.worlds >= WORLDS_PER_PASS;
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, 'firing due items failed; retrying');
      return false;
    }
  });
  return { runOnce, stop: loop.stop };
}
