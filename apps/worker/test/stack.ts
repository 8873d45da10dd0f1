/**
 * The real system for worker tests: the API's own test app (startTestApp: buildApp on an
 * ephemeral port against a fresh database) and real workers on the same config, with the retry
 * schedule and dead-worker timings shrunk.
 */
import { startTestApp } from '@sandbank/api/test-helpers';
import { loadConfig } from '@sandbank/config';
import { insertAccount, insertTransactionEvent } from '@sandbank/testing/fixtures';
import pg from 'pg';
import { startWorker, type Worker } from '../src/worker.ts';
import { type Receiver, startReceiver } from './receiver.ts';

export const WORKER_TEST_ENV = {
  LOG_LEVEL: 'silent',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2',
  WEBHOOK_TIMEOUT_MS: '1000',
  WORKER_CONCURRENCY: '4',
  WORKER_RELAY_POLL_MS: '20',
  WORKER_HEARTBEAT_SECONDS: '1',
  WORKER_STALE_AFTER_SECONDS: '2',
};

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(env: Record<string, string> = {}) {
  const app = await startTestApp({ ...WORKER_TEST_ENV, ...env });
  const db = new pg.Pool({ connectionString: app.databaseUrl, max: 4 });
  // Tests kill backends on purpose (crash and drop tests): an idle client of this pool may see it.
  db.on('error', () => {});
  const workers: Worker[] = [];

  async function createUser() {
    const user = await app.createUser();
    return { id: user.id, token: user.accessToken };
  }

  async function createWebhook(token: string, hookUrl: string, secret: string, clientId = 'test-app') {
    const res = await app.call('POST', '/v1/webhooks', {
      token,
      body: { url: hookUrl, secret, events: ['transaction.created'], clientId },
    });
    if (res.status !== 201) throw new Error(`webhook registration failed: ${JSON.stringify(res.body)}`);
    return res.body.data as { id: string };
  }

  /** A committed transaction with its event, written by SQL per the outbox contract. */
  async function commitEvent(userId: string, accountId?: string) {
    return insertTransactionEvent(db, { accountId: accountId ?? (await insertAccount(db, userId)) });
  }

  async function worker(overrides: Record<string, string> = {}) {
    const workerConfig = loadConfig({ ...app.env, ...overrides });
    const started = await startWorker({ config: workerConfig, databaseUrl: app.databaseUrl, logger: app.deps.logger });
    workers.push(started);
    return started;
  }

  async function deliveries(webhookId: string) {
    const { rows } = await db.query(
      `select id, status, attempt_count, last_status_code, next_attempt_at, completed_at, event_id
         from webhook_deliveries where webhook_id = $1 order by created_at, id`,
      [webhookId],
    );
    return rows;
  }

  async function attempts(deliveryId: string) {
    const { rows } = await db.query(
      `select attempt, started_at, status_code, error, next_attempt_at from webhook_delivery_attempts
        where delivery_id = $1 order by attempt`,
      [deliveryId],
    );
    return rows;
  }

  async function close() {
    await Promise.all(workers.map((w) => w.stop()));
    await db.end();
    await app.close();
  }

  return {
    url: app.url,
    config: app.deps.config,
    /** The API's dependencies, for domain calls an operator makes (a key rotation). */
    deps: app.deps,
    db,
    logs: app.logs,
    databaseUrl: app.databaseUrl,
    env: app.env,
    call: app.call,
    createUser,
    createWebhook,
    commitEvent,
    worker,
    workers: () => [...workers],
    deliveries,
    attempts,
    close,
  };
}

export type DeliveryStack = Stack & { receiver: Receiver };

/** The usual delivery setup: the stack, a local receiver and one running worker; `close` stops all three. */
export async function startDeliveryStack(env: Record<string, string> = {}): Promise<DeliveryStack> {
  const stack = await startStack(env);
  const receiver = await startReceiver();
  await stack.worker();
  return {
    ...stack,
    receiver,
    close: async () => {
      await stack.close();
      await receiver.close();
    },
  };
}
