import { Logger as GraphileLogger } from 'graphile-worker';
import type { Logger } from 'pino';

interface JobMeta {
  job?: { id?: string; task_identifier?: string; attempts?: number };
}

/**
 * Routes graphile-worker's log lines into our pino logger. Its per-job success lines are debug
 * (our task logs each attempt itself), and a job appears by id and task, not as the whole row.
 */
export function graphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const { job, ...rest } = (meta ?? {}) as JobMeta & Record<string, unknown>;
    const routine = level === 'info' && message.startsWith('Completed task');
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' && !routine ? 'info' : 'debug';
    const jobFields = job ? { jobId: job.id, task: job.task_identifier, jobAttempts: job.attempts } : {};
    const scoped = Object.keys(scope).length > 0 ? { scope } : {};
    logger[method]({ ...scoped, ...rest, ...jobFields }, message);
  });
}
