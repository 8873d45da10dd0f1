import { Logger as GraphileLogger } from 'graphile-worker';
import type { Logger } from 'pino';

/** Routes graphile-worker's log lines into our pino logger. */
export function graphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    logger[method]({ scope, ...meta }, message);
  });
}
