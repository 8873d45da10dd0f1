/**
 * graphile-worker 0.18 marks a finished job complete (or failed) without awaiting the promise,
 * and retries that write only for a few error codes (57P03, deadlocks, timeouts). When the
 * database goes away at that moment (a restart: 57P01, ECONNREFUSED, a terminated connection)
 * the promise rejects unhandled, and Node ends the process. The job is then merely left locked
 * by this worker; the heartbeat releases such orphaned locks (see heartbeat.ts). So an unhandled
 * rejection that is a lost database connection is logged and survived; anything else still ends
 * the process, as it should.
 *
 * 25006 (read_only_sql_transaction) counts as a lost primary: in a failover a new connection can
 * land, for up to HAProxy's check interval, on a node that Patroni is demoting. Seen in the cluster
 * drill (2026-11-29): `batchFailJobs` met it and the worker died.
 */
import type { Logger } from 'pino';

const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '25006', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'the database system is',
  'terminating connection',
];

/** Whether `error` says the database connection was lost or refused (not a bug in a statement). */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // SQLSTATE class 08: connection exception.
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  return CONNECTION_MESSAGES.some((message) => error.message.includes(message));
}

/** Installs the process-wide handler; returns its removal (for tests). */
export function surviveLostConnections(logger: Logger): () => void {
  const handler = (reason: unknown) => {
    if (isConnectionLoss(reason)) {
      const { message, code } = reason as Error & { code?: string };
      logger.error(
        { err: { message, code } },
        'a database write was lost to a connection failure; the heartbeat recovers its job',
      );
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  };
  process.on('unhandledRejection', handler);
  return () => process.off('unhandledRejection', handler);
}
