/**
 * Runs the real app on an ephemeral port against a fresh database, and offers the small
 * helpers every test file needs: HTTP calls and ready-made users.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, loadConfig, resolveSecrets } from '@sandbank/config';
import { type AppRouter, type Deps, issueSession, ReadRouting } from '@sandbank/core';
import { createOrm, createReadOrm, nativePool, UserEntity } from '@sandbank/db';
import type { WebhookEvent } from '@sandbank/schemas';
import { createTestDatabase } from '@sandbank/testing';
import type { Loose } from '@sandbank/testing/fixtures';
import type { inferRouterOutputs } from '@trpc/server';
import argon2 from 'argon2';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { watchFaceAnswers } from './face-answers.ts';

export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * Every procedure's response body, by area and procedure, from the router itself (no copy):
 * `app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts')`.
 */
export type Output = inferRouterOutputs<AppRouter>;
export type { Loose };

export interface CallResult<T = Loose> {
  status: number;
  headers: Headers;
  body: T;
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

let passwordHash: Promise<string> | undefined;

/** Limits far above what any suite sends; the rate-limit tests set small ones explicitly. */
const GENEROUS_LIMITS = {
  RATE_LIMIT_IP: '1000000/60',
  RATE_LIMIT_AUTH: '1000000/60',
  RATE_LIMIT_API_KEY: '1000000/60',
  LOGIN_MAX_CONSECUTIVE_FAILS: '1000000',
  LOGIN_MAX_FAILS_PER_IP_PER_DAY: '1000000',
};

export interface StartOptions {
  /** Run against this existing database (e.g. a second API process) instead of a fresh one; it is not dropped on close. */
  databaseUrl?: string;
}

export async function startTestApp(env: Record<string, string> = {}, options: StartOptions = {}) {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await createTestDatabase();
  /** The whole environment of this app, so a worker in the same test can load the same config. */
  const fullEnv: Record<string, string> = {
    ...GENEROUS_LIMITS,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long',
    WEBHOOK_ENCRYPTION_KEYS: `test1:${Buffer.alloc(32, 7).toString('base64')}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    ...env,
  };
  const config = loadConfig(fullEnv);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const { poolSize, lockSlots } = config.database;
  const orm = await createOrm({ url: database.url, poolSize, lockSlots });
  /** The app's own pg pool, for SQL fixtures and assertions. */
  const db = await nativePool(orm);
  const deps: Deps = { config, secrets: resolveSecrets(config), orm, logger: createLogger(config, 'api', sink) };
  // DATABASE_READ_URL: the read-only paths' replica, as main.ts sets it up.
  const read = config.database.read;
  const readOrm = read && (await createReadOrm({ url: read.url, poolSize: read.poolSize }));
  if (read && readOrm)
    deps.readRouting = new ReadRouting({ primary: orm, replica: readOrm, maxLagMs: read.maxLagMs, waitMs: read.waitMs });
  const server = buildApp(deps).listen(0, '127.0.0.1');
  /** Face answers that do not match their provider's published document (face-answers.ts). */
  const faceProblems: string[] = [];
  watchFaceAnswers(server, faceProblems);
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function call<T = Loose>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(url + path, {
      method,
      headers,
      body:
        options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** A user inserted directly (skips the slow password hash of registration) with a live session. */
  async function createUser(email = `user-${uuidv7()}@example.com`): Promise<TestUser> {
    passwordHash ??= argon2.hash(TEST_PASSWORD, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2 });
    const em = orm.em.fork();
    const user = em.create(UserEntity, { id: uuidv7(), email, passwordHash: await passwordHash });
    await em.flush();
    const session = await issueSession(em, deps, { userId: user.id });
    return { id: user.id, email, password: TEST_PASSWORD, ...session };
  }

  async function close(): Promise<void> {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await orm.close();
    await readOrm?.close();
    await database.drop();
    if (faceProblems.length > 0) {
      throw new Error(`${faceProblems.length} face answers do not match their provider's document:\n${faceProblems.join('\n')}`);
    }
  }

  /** Takes the database away under the running app (its connections are killed). */
  const dropDatabase = () => database.drop();

  return {
    url,
    deps,
    orm,
    db,
    logs,
    env: fullEnv,
    call,
    createUser,
    close,
    dropDatabase,
    databaseUrl: database.url,
    faceProblems,
  };
}

/**
 * The user's events once at least `count` are visible. The event log serves an event only when every
 * older database transaction of the cluster has finished (its gap-free horizon), so under parallel
 * test files a just-committed event can take a moment to appear.
 */
export async function visibleEvents(app: TestApp, user: TestUser, count: number, query = '?limit=200'): Promise<WebhookEvent[]> {
  let events: WebhookEvent[] = [];
  await expect
    .poll(async () => {
      events = (await app.call('GET', `/v1/events${query}`, { token: user.accessToken })).body.data;
      return events.length;
    })
    .toBeGreaterThanOrEqual(count);
  return events;
}

/**
 * A refused call: its status, contract code and the path of its first detail, as one comparison so a
 * failure shows all three (`why` names the case; by default the start of the body).
 */
export function expectRefusal(
  res: CallResult,
  [status, code, path]: [number, string, string | undefined],
  why = JSON.stringify(res.body).slice(0, 300),
): void {
  expect([res.status, res.body.code, res.body.details?.[0]?.path], why).toEqual([status, code, path]);
}
