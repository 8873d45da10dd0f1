/**
 * Retention of the webhook lab's recorded exchanges (docs/guides/webhooks.md, "How long exchanges
 * are kept"). Every attempt stores its request (URL, headers, body) and the receiver's answer;
 * without this a busy sandbox's attempts table grows without bound. Every `pollMs`
 * (WORKER_ATTEMPT_RETENTION_MS) the worker clears those columns on attempts older than
 * WEBHOOK_ATTEMPT_RETENTION_HOURS of real time, in batches of `batchSize` rows per statement, a
 * full batch followed at once by the next. The attempt rows themselves (number, time, status,
 * duration, error, faults) stay: they are small, they are the delivery's history, and nothing
 * removes deliveries either (a webhook's deliveries go with its user or world). Several workers may
 * run this at once (queries.ts says why they neither block nor double-count).
 */
import type pg from 'pg';
import type { Logger } from 'pino';
import { startPollLoop } from '../poll-loop.ts';
import { clearExpiredAttemptExchanges } from './queries.ts';

/** Attempts cleared per statement: a few hundred rows' bodies, short enough never to hold the table long. */
const ATTEMPTS_PER_BATCH = 500;

export interface AttemptRetentionLoop {
  /** One batch now; resolves with how many attempts' exchanges it cleared. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export interface AttemptRetentionOptions {
  pool: pg.Pool;
  retentionHours: number;
  pollMs: number;
  logger: Logger;
  batchSize?: number;
}

export function startAttemptRetentionLoop(options: AttemptRetentionOptions): AttemptRetentionLoop {
  const { pool, retentionHours, pollMs, logger, batchSize = ATTEMPTS_PER_BATCH } = options;
  const runOnce = () => clearExpiredAttemptExchanges(pool, { retentionHours, batchSize });
  const loop = startPollLoop(pollMs, async () => {
    try {
      const cleared = await runOnce();
      if (cleared > 0) logger.info({ cleared, retentionHours }, 'expired webhook attempt exchanges cleared');
      return cleared >= batchSize;
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, 'clearing expired attempt exchanges failed; retrying');
      return false;
    }
  });
  return { runOnce, stop: loop.stop };
}
