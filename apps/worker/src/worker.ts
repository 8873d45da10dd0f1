/**
 * The worker: a graphile-worker runner with Sandbank's task list. Built apart from `main.ts` so
 * tests can start a real worker in-process against their own database.
 */
import type { Config } from '@sandbank/config';
import { type Runner, run, type TaskList } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from 'pino';
import { graphileLogger } from './logging.ts';

export interface WorkerDeps {
  config: Config;
  databaseUrl: string;
  logger: Logger;
}

export interface Worker {
  runner: Runner;
  stop(): Promise<void>;
}

export function buildTaskList(_deps: WorkerDeps): TaskList {
  return {};
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  // graphile-worker keeps one client for LISTEN; it gets a pool of its own.
  const pgPool = new pg.Pool({ connectionString: deps.databaseUrl, max: deps.config.worker.concurrency + 2 });
  const runner = await run({
    pgPool,
    concurrency: deps.config.worker.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: buildTaskList(deps),
    logger: graphileLogger(deps.logger),
  });
  return {
    runner,
    async stop() {
      await runner.stop();
      await pgPool.end();
    },
  };
}
