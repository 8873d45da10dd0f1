/**
 * The real system for worker tests: the API (buildApp) on an ephemeral port and real workers,
 * against a fresh database, with the retry schedule and dead-worker timings shrunk by config.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { buildApp, type Deps } from '@sandbank/api';
import { createLogger, loadConfig, resolveSecrets } from '@sandbank/config';
import { createOrm } from '@sandbank/db';
import { createTestDatabase } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent } from '@sandbank/testing/outbox';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { startWorker, type Worker } from '../src/worker.ts';

export const TEST_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long',
  WEBHOOK_ENCRYPTION_KEYS: `test1:${Buffer.alloc(32, 7).toString('base64')}`,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2',
  WEBHOOK_TIMEOUT_MS: '1000',
  WORKER_CONCURRENCY: '4',
  WORKER_RELAY_POLL_MS: '20',
  WORKER_HEARTBEAT_SECONDS: '1',
  WORKER_STALE_AFTER_SECONDS: '2',
};

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(env: Record<string, string> = {}) {
  const database = await createTestDatabase();
  const fullEnv = { ...TEST_ENV, DATABASE_URL: database.url, ...env };
  const config = loadConfig(fullEnv);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(config, 'test', sink);
  const orm = await createOrm({ url: database.url, poolSize: 5 });
  const deps: Deps = { config, secrets: resolveSecrets(config), orm, logger };
  const server = buildApp(deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = new pg.Pool({ connectionString: database.url, max: 4 });
  const workers: Worker[] = [];

  async function call(method: string, path: string, { body, token }: { body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function createUser() {
    const res = await call('POST', '/v1/auth/register', {
      body: { email: `user-${uuidv7()}@example.com`, password: 'password-123' },
    });
    if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
    return { id: res.body.data.user.id as string, token: res.body.data.accessToken as string };
  }

  async function createWebhook(token: string, hookUrl: string, secret: string, clientId = 'test-app') {
    const res = await call('POST', '/v1/webhooks', {
      token,
      body: { url: hookUrl, secret, events: ['transaction.created'], clientId },
    });
    if (res.status !== 201) throw new Error(`webhook registration failed: ${JSON.stringify(res.body)}`);
    return res.body.data as { id: string };
  }

  /** A committed transaction with its event, written by SQL per the outbox contract. */
  async function commitEvent(userId: string, accountId?: string) {
    return insertTransactionEvent(db, { userId, accountId: accountId ?? (await insertAccount(db, userId)) });
  }

  async function worker(overrides: Record<string, string> = {}) {
    const workerConfig = loadConfig({ ...fullEnv, ...overrides });
    const started = await startWorker({ config: workerConfig, databaseUrl: database.url, logger });
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
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.end();
    await orm.close();
    await database.drop();
  }

  return {
    url,
    config,
    db,
    logs,
    databaseUrl: database.url,
    env: fullEnv,
    call,
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

/** Polls until `check` returns a truthy value. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000, intervalMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
