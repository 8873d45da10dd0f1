/**
 * The rate limiters of one API process (docs/operations/security.md), built from config. With the `postgres` store
 * every replica shares one table (`rate_limits`, created by a migration), and an in-memory
 * limiter takes over while the database does not answer, so an outage never turns into 500s.
 */
import type { Config } from '@sandbank/config';
import { nativePool, type Orm } from '@sandbank/db';
import {
  type IRateLimiterOptions,
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { type GuessBuckets, MemoryGuessBuckets, PostgresGuessBuckets } from './guess-buckets.ts';

export interface RateLimits {
  /** Every request, per client IP. */
  ip: RateLimiterAbstract;
  /** Register and login, per client IP. */
  auth: RateLimiterAbstract;
  /** The pull endpoint, per API key. */
  apiKey: RateLimiterAbstract;
  /** The password guard's buckets (consecutive failures per subject+IP, failures per IP per day). */
  guesses: GuessBuckets;
}

/** The buckets a procedure can be limited by (`rateLimit(bucket, keyOf)`). */
export type RateLimitBucket = 'ip' | 'auth' | 'apiKey';

export const RATE_LIMIT_TABLE = 'rate_limits';

export function createRateLimits(config: Config, orm: Orm): RateLimits {
  const { store, ip, auth, apiKey } = config.rateLimits;
  // The pool is reached lazily: building the app stays synchronous.
  const pool = { query: (query: unknown) => nativePool(orm).then((client) => client.query(query as never)) };
  const make = (keyPrefix: string, options: IRateLimiterOptions): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, ...options });
    if (store === 'memory') return memory;
    return new RateLimiterPostgres({
      ...options,
      keyPrefix,
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      insuranceLimiter: memory,
    });
  };
  return {
    ip: make('ip', ip),
    auth: make('auth', auth),
    apiKey: make('api_key', apiKey),
    guesses: store === 'memory' ? new MemoryGuessBuckets() : new PostgresGuessBuckets(orm),
  };
}

export interface RateLimitOutcome {
  allowed: boolean;
  /** `RateLimit-Limit`/`-Remaining`/`-Reset`, plus `Retry-After` when refused. */
  headers: Record<string, string>;
}

/** Takes one point from `key`'s bucket and says whether the request may go on. */
export async function consumePoint(limiter: RateLimiterAbstract, key: string): Promise<RateLimitOutcome> {
  try {
    return { allowed: true, headers: rateLimitHeaders(limiter.points, await limiter.consume(key)) };
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return { allowed: false, headers: refusalHeaders(limiter.points, error) };
  }
}

function rateLimitHeaders(limit: number, res: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
    'RateLimit-Reset': String(secondsUntil(res)),
  };
}

function refusalHeaders(limit: number, res: RateLimiterRes): Record<string, string> {
  return { ...rateLimitHeaders(limit, res), 'RateLimit-Remaining': '0', 'Retry-After': String(secondsUntil(res)) };
}

const secondsUntil = (res: RateLimiterRes): number => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
