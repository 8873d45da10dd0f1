/**
 * The worker: a graphile-worker runner with Sandbank's task list, the outbox relay and the
 * heartbeat that recovers dead workers' jobs. Built apart from `main.ts` so tests can start
 * real workers in-process against their own database.
 */
import { EventEmitter } from 'node:events';
import { type Config, resolveSecrets, type Secrets } from '@sandbank/config';
import { createOrm } from '@sandbank/db';
import { DELIVER_WEBHOOK_TASK } from '@sandbank/webhooks';
import { makeWorkerUtils, type Runner, run, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from 'pino';
import { createDeliveryAgent } from './delivery/http-client.ts';
import { UserSlots } from './delivery/user-slots.ts';
import { type DueItemsLoop, startDueItemsLoop } from './due-items.ts';
import { type Heartbeat, startHeartbeat } from './heartbeat.ts';
import { graphileLogger } from './logging.ts';
import { startRelay } from './relay.ts';
import { type AttemptRetentionLoop, startAttemptRetentionLoop } from './retention/attempt-retention.ts';
import { type DeliverWebhookDeps, deliverWebhookTask } from './tasks/deliver-webhook.ts';
import { startWorldSweepLoop, type WorldSweepLoop } from './world-sweep.ts';

export interface WorkerDeps {
  config: Config;
  databaseUrl: string;
  logger: Logger;
  /** Defaults to `resolveSecrets(config)`. */
  secrets?: Secrets;
}

export interface Worker {
  runner: Runner;
  /** The graphile-worker pool id: `locked_by` of the jobs this worker runs. */
  workerId: string;
  heartbeat: Heartbeat;
  dueItems: DueItemsLoop;
  /** Removes child worlds whose TTL has passed. */
  worldSweep: WorldSweepLoop;
  /** Clears attempts' recorded request and response once WEBHOOK_ATTEMPT_RETENTION_HOURS have passed. */
  attemptRetention: AttemptRetentionLoop;
  /** Stops relaying, lets running deliveries finish (or releases them), then closes connections. */
  stop(): Promise<void>;
}

export function buildTaskList(deps: DeliverWebhookDeps): TaskList {
  return { [DELIVER_WEBHOOK_TASK]: deliverWebhookTask(deps) };
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { config, logger } = deps;
  const secrets = deps.secrets ?? resolveSecrets(config);
  // One pool for graphile-worker (it keeps one client for LISTEN), the tasks, the relay and the heartbeat.
  const pool = new pg.Pool({ connectionString: deps.databaseUrl, max: config.worker.concurrency + 4 });
  // A database restart or a terminated backend: pg-pool drops an idle client and reports it here
  // (without a listener the process would die); the next checkout connects afresh. Its error
  // carries the whole client (`err.client`, parsed statements and all), so log only what it says.
  pool.on('error', (error: Error & { code?: string }) =>
    logger.warn({ err: { message: error.message, code: error.code } }, 'database connection lost; the pool reconnects'),
  );
  // A checked-out client's failure reaches its caller through the next query, which logs it;
  // this listener only keeps the 'error' event from crashing the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  const agent = createDeliveryAgent({ allowPrivate: config.webhooks.allowPrivateUrls }, config.worker.concurrency);
  const events: WorkerEvents = new EventEmitter();
  let workerId: string | undefined;
  events.on('pool:create', ({ workerPool }) => {
    workerId = workerPool.id;
  });
  const activeJobs = new Set<string>();
  events.on('job:start', ({ job }) => activeJobs.add(job.id));
  events.on('job:complete', ({ job }) => activeJobs.delete(job.id));
  // Fairness: a user's jobs are skipped while it has its share of the slots in flight here.
  const slots = new UserSlots(config.worker.userConcurrency);
  const runner = await run({
    pgPool: pool,
    concurrency: config.worker.concurrency,
    noHandleSignals: true,
    // No cron items: without this graphile-worker looks for a `crontab` file in the working
    // directory and logs "Failed to read crontab file …; cron is disabled" at every start.
    parsedCronItems: [],
    pollInterval: 1000,
    events,
    forbiddenFlags: () => slots.forbiddenFlags(),
    taskList: buildTaskList({ config, secrets, pool, agent, logger, slots }),
    logger: graphileLogger(logger),
  });
  if (!workerId) throw new Error('graphile-worker did not report its pool id');
  const utils = await makeWorkerUtils({ pgPool: pool, logger: graphileLogger(logger) });
  const heartbeat = await startHeartbeat({
    pool,
    utils,
    workerId,
    intervalSeconds: config.worker.heartbeatSeconds,
    staleAfterSeconds: config.worker.staleAfterSeconds,
    activeJobIds: () => activeJobs,
    logger,
  });
  const relay = startRelay({ pool, pollMs: config.worker.relayPollMs, logger });
  // The lifecycle's due items go through the domain functions, which speak MikroORM: a small pool of their own.
  const orm = await createOrm({ url: deps.databaseUrl, poolSize: 2 });
  const dueItems = startDueItemsLoop({ orm, pollMs: config.worker.duePollMs, logger });
  const worldSweep = startWorldSweepLoop({ orm, pollMs: config.worker.worldSweepMs, logger });
  const attemptRetention = startAttemptRetentionLoop({
    pool,
    retentionHours: config.webhooks.attemptRetentionHours,
    pollMs: config.worker.attemptRetentionMs,
    logger,
  });

  let stopped: Promise<void> | undefined;
  return {
    runner,
    workerId,
    heartbeat,
    dueItems,
    worldSweep,
    attemptRetention,
    stop() {
      stopped ??= (async () => {
        await relay.stop();
        await dueItems.stop();
        await worldSweep.stop();
        await attemptRetention.stop();
        await orm.close();
        await runner.stop();
        await heartbeat.stop();
        await utils.release();
        await agent.close();
        await pool.end();
      })();
      return stopped;
    },
  };
}
