/**
 * The password guard's buckets. rate-limiter-flexible keeps one `points` count per key, and its
 * `consume` adds a point even when it refuses; only `block`/`delete` reset it. The guard needs
 * more: a slot is *reserved* before the password is checked, then either becomes a failure, is
 * given back (right password, or a call that ends before any check), or a failure fills the bucket
 * and starts a block. So a bucket here keeps three things apart: `inFlight` (reserved, being
 * checked), `failed`, and `blockedUntil`.
 *
 * `reserve` is one conditional increment that refuses without counting: with PostgreSQL, one
 * `INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING` (no row back = refused), so replicas share
 * the buckets and a burst never gets more slots than the bucket's size; in memory, a synchronous
 * check-and-increment. A give-back only lowers `inFlight`, never `failed` or a block.
 */
import type { Orm } from '@sandbank/db';
import { nativePool } from '@sandbank/db';
import { isDatabaseUnavailable } from '../errors.ts';
import { type Pool, reserveGuess, selectGuessBucket, settleGuess, sweepGuesses } from './queries.ts';

export interface GuessBucket {
  inFlight: number;
  failed: number;
  /** Epoch ms; a block is in force while it is in the future. */
  blockedUntil: number | null;
  /** Epoch ms: the bucket (failures included) is forgotten then. */
  expire: number;
}

/** How a checked guess ended. `fail` with `blockMs` blocks the bucket when it fills it (and starts a fresh count). */
export type GuessOutcome = { kind: 'giveBack' } | { kind: 'success' } | { kind: 'fail'; max: number; blockMs?: number };

export interface GuessBuckets {
  /** Takes a slot unless the bucket is blocked or `inFlight + failed` has reached `max`; false changes nothing. */
  reserve(key: string, max: number, now: number, ttlMs: number): Promise<boolean>;
  peek(key: string): Promise<GuessBucket | undefined>;
  settle(key: string, outcome: GuessOutcome, now: number): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

export class MemoryGuessBuckets implements GuessBuckets {
  readonly #buckets = new Map<string, GuessBucket>();
  #lastSweep = 0;

  async reserve(key: string, max: number, now: number, ttlMs: number): Promise<boolean> {
    this.#sweep(now);
    const bucket = this.#buckets.get(key);
    if (!bucket || bucket.expire <= now) {
      this.#buckets.set(key, { inFlight: 1, failed: 0, blockedUntil: null, expire: now + ttlMs });
      return true;
    }
    if ((bucket.blockedUntil ?? 0) > now || bucket.inFlight + bucket.failed >= max) return false;
    bucket.inFlight += 1;
    return true;
  }

  async peek(key: string): Promise<GuessBucket | undefined> {
    const bucket = this.#buckets.get(key);
    return bucket && { ...bucket };
  }

  async settle(key: string, outcome: GuessOutcome, now: number): Promise<void> {
    const bucket = this.#buckets.get(key);
    if (!bucket || bucket.expire <= now) return;
    bucket.inFlight = Math.max(0, bucket.inFlight - 1);
    if (outcome.kind === 'success') bucket.failed = 0;
    if (outcome.kind === 'fail') {
      bucket.failed += 1;
      if (outcome.blockMs !== undefined && bucket.failed >= outcome.max) {
        bucket.failed = 0;
        bucket.blockedUntil = now + outcome.blockMs;
      }
    }
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.expire <= now && (bucket.blockedUntil ?? 0) <= now) this.#buckets.delete(key);
    }
  }
}

/**
 * The shared store. While PostgreSQL does not answer, an in-memory store takes over (as the
 * rate limiters' insurance limiter does), so an outage never turns a login into a 500. Only an
 * outage does: any other failure of the store (a missing table, a query the database refuses) is
 * thrown, so a broken shared guard fails closed instead of quietly guarding one replica at a time.
 */
export class PostgresGuessBuckets implements GuessBuckets {
  readonly #insurance = new MemoryGuessBuckets();
  #lastSweep = 0;

  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async reserve(key: string, max: number, now: number, ttlMs: number): Promise<boolean> {
    this.#sweep(now);
    return this.#orInsurance(
      (pool) => reserveGuess(pool, { key, max, now, ttlMs }),
      (memory) => memory.reserve(key, max, now, ttlMs),
    );
  }

  async peek(key: string): Promise<GuessBucket | undefined> {
    return this.#orInsurance(
      async (pool) => {
        const row = await selectGuessBucket(pool, key);
        if (!row) return undefined;
        const blockedUntil = row.blocked_until === null ? null : Number(row.blocked_until);
        return { inFlight: row.in_flight, failed: row.failed, blockedUntil, expire: Number(row.expire) };
      },
      (memory) => memory.peek(key),
    );
  }

  async settle(key: string, outcome: GuessOutcome, now: number): Promise<void> {
    const max = outcome.kind === 'fail' ? outcome.max : 0;
    const blockMs = outcome.kind === 'fail' ? (outcome.blockMs ?? null) : null;
    await this.#orInsurance(
      async (pool) => {
        await settleGuess(pool, { key, kind: outcome.kind, max, blockMs, now });
      },
      (memory) => memory.settle(key, outcome, now),
    );
  }

  async #orInsurance<T>(shared: (pool: Pool) => Promise<T>, local: (memory: MemoryGuessBuckets) => Promise<T>): Promise<T> {
    try {
      return await shared(await nativePool(this.#orm));
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return local(this.#insurance);
    }
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    void nativePool(this.#orm)
      .then((pool) => sweepGuesses(pool, now))
      .catch(() => undefined);
  }
}
