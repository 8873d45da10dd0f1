/**
 * The one place that reads `process.env`. Every setting is parsed with zod, has a documented
 * default (see `.env.example` and docs/operations/configuration.md), and a bad value stops start-up with a message
 * that names the variable.
 */
import path from 'node:path';
import { z } from 'zod';

const bool = (fallback: boolean) => z.stringbool().default(fallback);
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );
const seconds = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'a comma-separated list of whole seconds')
  .transform((value) => value.split(',').map(Number));
/** `points/seconds`: at most `points` requests per window of `seconds`. */
const rate = (fallback: string) =>
  z
    .string()
    .regex(/^\d+\/\d+$/, 'points/seconds, e.g. 600/60')
    .default(fallback)
    .transform((value) => {
      const [points, duration] = value.split('/').map(Number) as [number, number];
      return { points, duration };
    })
    .refine((value) => value.points > 0 && value.duration > 0, 'points and seconds must be positive');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: z.stringbool().optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(3000, 0, 65535),
  PUBLIC_URL: z.url().optional(),

  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_POOL_SIZE: int(20, 1, 500),
  // A streaming replica for the read-only paths (docs/operations/high-availability.md, "Read replicas").
  DATABASE_READ_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_READ_POOL_SIZE: int(10, 1, 500),
  // Reads fall back to the primary when the replica is further behind than this (milliseconds).
  DATABASE_READ_MAX_LAG_MS: int(2_000, 0, 600_000),
  // How long a read after the caller's write waits for the replica to replay it before reading the primary.
  DATABASE_READ_WAIT_MS: int(200, 0, 10_000),
  DATA_DIR: z.string().min(1).default('.data'),
  EMBEDDED_PG_PORT: int(54329, 1, 65535),

  JWT_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  JWT_ISSUER: z.string().min(1).default('sandbank'),
  JWT_AUDIENCE: z.string().min(1).default('sandbank-api'),
  ACCESS_TOKEN_TTL_SECONDS: int(900, 1),
  REFRESH_TOKEN_TTL_SECONDS: int(30 * 24 * 3600, 1),

  WEBHOOK_ENCRYPTION_KEYS: z.string().optional(),
  // Default: allowed in development (local receivers), refused in production and test.
  WEBHOOK_ALLOW_PRIVATE_URLS: z.stringbool().optional(),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: seconds.default([5, 300, 1800, 7200, 18000, 36000, 36000]),
  WEBHOOK_TIMEOUT_MS: int(10_000, 1),
  WEBHOOK_SECRET_OVERLAP_HOURS: int(24, 0, 24 * 30),
  // How long each attempt's recorded request and response are kept (real time): 1 hour to 1 year, 7 days by default.
  WEBHOOK_ATTEMPT_RETENTION_HOURS: int(7 * 24, 1, 365 * 24),
  LIMIT_WEBHOOKS: int(20, 1, 10_000),
  LIMIT_EVENT_STREAMS: int(10, 1, 1000),
  // A user's family (the user and its child worlds), where per-world limits would multiply.
  LIMIT_FAMILY_EVENT_STREAMS: int(20, 1, 10_000),
  LIMIT_FAMILY_HEAVY_OPERATIONS: int(2, 1, 100),
  // Requests of one family served at once per API process (default: three quarters of the pool).
  LIMIT_FAMILY_REQUESTS: int(0, 0, 10_000),
  LIMIT_API_KEYS: int(50, 1, 10_000),
  LIMIT_OPEN_ACCOUNTS: int(100, 1, 100_000),
  LIMIT_SCHEDULES_PER_ACCOUNT: int(20, 1, 10_000),
  // Disposable worlds: live child worlds per parent, snapshots per user, transactions per snapshot.
  LIMIT_WORLDS: int(1_000, 1, 100_000),
  LIMIT_SNAPSHOTS: int(50, 1, 10_000),
  LIMIT_SNAPSHOT_TRANSACTIONS: int(200_000, 1, 10_000_000),
  // What one request may fire (an advance, a schedule's backfill): beyond, 422 with the count.
  LIMIT_DUE_ITEMS_PER_REQUEST: int(1_000, 1, 1_000_000),
  WORKER_CONCURRENCY: int(8, 1, 200),
  // Fairness: one user's attempts in flight per worker (its dead receivers cannot hold every slot).
  WORKER_USER_CONCURRENCY: int(2, 1, 200),
  WORKER_RELAY_POLL_MS: int(50, 1),
  WORKER_HEARTBEAT_SECONDS: int(10, 1),
  WORKER_STALE_AFTER_SECONDS: int(45, 2),
  WORKER_DUE_POLL_MS: int(5_000, 10),
  // How often the worker removes child worlds whose TTL has passed.
  WORKER_WORLD_SWEEP_MS: int(10_000, 10),
  // How often the worker clears attempt exchanges older than WEBHOOK_ATTEMPT_RETENTION_HOURS.
  WORKER_ATTEMPT_RETENTION_MS: int(300_000, 10),

  // A partner key reads every owner: refuse short, guessable ones (the message never echoes a key).
  PARTNER_API_KEYS: list.refine((keys) => keys.every((key) => key.length >= 32), 'each key needs at least 32 characters'),

  CORS_ORIGINS: list,
  TRUST_PROXY: z.string().default('false'),
  HSTS: bool(false),
  // Default: every response checked against its contract, except in production (bench/README.md).
  CHECK_RESPONSES: z.stringbool().optional(),

  RATE_LIMIT_ENABLED: bool(true),
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  RATE_LIMIT_IP: rate('600/60'),
  // A test suite registers and logs in many users from one address; failed logins have their own guard.
  RATE_LIMIT_AUTH: rate('120/60'),
  RATE_LIMIT_API_KEY: rate('600/60'),
  LOGIN_MAX_CONSECUTIVE_FAILS: int(10, 1),
  LOGIN_BLOCK_SECONDS: int(900, 1),
  LOGIN_MAX_FAILS_PER_IP_PER_DAY: int(100, 1),
});

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; throws a `ConfigError` naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.WEBHOOK_RETRY_SCHEDULE_SECONDS.length === 0) {
    throw new ConfigError('Invalid configuration:\n  WEBHOOK_RETRY_SCHEDULE_SECONDS: empty');
  }
  const production = e.NODE_ENV === 'production';
  if (production && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required in production');
  }
  if (production && !e.WEBHOOK_ENCRYPTION_KEYS) {
    throw new ConfigError('Invalid configuration:\n  WEBHOOK_ENCRYPTION_KEYS: required in production');
  }
  return {
    env: e.NODE_ENV,
    production,
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY ?? !production },
    http: {
      host: e.HOST,
      port: e.PORT,
      publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
      corsOrigins: e.CORS_ORIGINS,
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      hsts: e.HSTS,
      checkResponses: e.CHECK_RESPONSES ?? !production,
    },
    database: {
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      read: e.DATABASE_READ_URL
        ? {
            url: e.DATABASE_READ_URL,
            poolSize: e.DATABASE_READ_POOL_SIZE,
            maxLagMs: e.DATABASE_READ_MAX_LAG_MS,
            waitMs: e.DATABASE_READ_WAIT_MS,
          }
        : undefined,
      // A family's share of the world locks one process holds (packages/db/src/advisory-lock.ts sets
      // their total: a quarter of the pool).
      lockSlots: { perShare: e.LIMIT_FAMILY_HEAVY_OPERATIONS },
      embeddedPort: e.EMBEDDED_PG_PORT,
    },
    dataDir: path.resolve(e.DATA_DIR),
    auth: {
      jwtSecret: e.JWT_SECRET,
      issuer: e.JWT_ISSUER,
      audience: e.JWT_AUDIENCE,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    },
    webhooks: {
      encryptionKeys: e.WEBHOOK_ENCRYPTION_KEYS,
      allowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS ?? e.NODE_ENV === 'development',
      retryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE_SECONDS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      secretOverlapSeconds: e.WEBHOOK_SECRET_OVERLAP_HOURS * 3600,
      attemptRetentionHours: e.WEBHOOK_ATTEMPT_RETENTION_HOURS,
    },
    limits: {
      webhooks: e.LIMIT_WEBHOOKS,
      eventStreams: e.LIMIT_EVENT_STREAMS,
      familyEventStreams: e.LIMIT_FAMILY_EVENT_STREAMS,
      familyRequests: e.LIMIT_FAMILY_REQUESTS || Math.max(2, Math.floor((e.DATABASE_POOL_SIZE * 3) / 4)),
      apiKeys: e.LIMIT_API_KEYS,
      openAccounts: e.LIMIT_OPEN_ACCOUNTS,
      schedulesPerAccount: e.LIMIT_SCHEDULES_PER_ACCOUNT,
      worlds: e.LIMIT_WORLDS,
      snapshots: e.LIMIT_SNAPSHOTS,
      snapshotTransactions: e.LIMIT_SNAPSHOT_TRANSACTIONS,
      dueItemsPerRequest: e.LIMIT_DUE_ITEMS_PER_REQUEST,
    },
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      userConcurrency: Math.min(e.WORKER_USER_CONCURRENCY, e.WORKER_CONCURRENCY),
      relayPollMs: e.WORKER_RELAY_POLL_MS,
      heartbeatSeconds: e.WORKER_HEARTBEAT_SECONDS,
      staleAfterSeconds: e.WORKER_STALE_AFTER_SECONDS,
      duePollMs: e.WORKER_DUE_POLL_MS,
      worldSweepMs: e.WORKER_WORLD_SWEEP_MS,
      attemptRetentionMs: e.WORKER_ATTEMPT_RETENTION_MS,
    },
    integrations: { partnerApiKeys: e.PARTNER_API_KEYS },
    rateLimits: {
      enabled: e.RATE_LIMIT_ENABLED,
      store: e.RATE_LIMIT_STORE,
      ip: e.RATE_LIMIT_IP,
      auth: e.RATE_LIMIT_AUTH,
      apiKey: e.RATE_LIMIT_API_KEY,
      login: {
        maxConsecutiveFails: e.LOGIN_MAX_CONSECUTIVE_FAILS,
        blockSeconds: e.LOGIN_BLOCK_SECONDS,
        maxFailsPerIpPerDay: e.LOGIN_MAX_FAILS_PER_IP_PER_DAY,
      },
    },
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** `false` (default: the socket address is the client), `true`, a hop count, or a list of subnets. */
function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'false' || value === '') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((item) => item.trim());
}
