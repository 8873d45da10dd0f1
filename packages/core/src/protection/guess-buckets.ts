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

const GUESS_TABLE = 'password_guesses';

const RESERVE_SQL = `
  insert into ${GUESS_TABLE} as g (key, in_flight, failed, blocked_until, expire)
  values ($1, 1, 0, null, $2::bigint + $3::bigint)
  on conflict (key) do update set
    in_flight = case when g.expire <= $2 then 1 else g.in_flight + 1 end,
    failed = case when g.expire <= $2 then 0 else g.failed end,
    blocked_until = case when g.expire <= $2 then null else g.blocked_until end,
    expire = case when g.expire <= $2 then excluded.expire else g.expire end
  where g.expire <= $2 or (coalesce(g.blocked_until, 0) <= $2 and g.in_flight + g.failed < $4)
  returning in_flight`;

// SET reads the row's old values: `failed + 1` is the count with this failure in it.
const SETTLE_SQL = `
  update ${GUESS_TABLE} set
    in_flight = greatest(in_flight - 1, 0),
    failed = case $2::text
      when 'success' then 0
      when 'fail' then case when $4::bigint is not null and failed + 1 >= $3 then 0 else failed + 1 end
      else failed end,
    blocked_until = case when $2::text = 'fail' and $4::bigint is not null and failed + 1 >= $3
      then $5::bigint + $4::bigint else blocked_until end
  where key = $1 and expire > $5`;

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
      async (pool) => (await pool.query(RESERVE_SQL, [key, now, ttlMs, max])).rowCount === 1,
      (memory) => memory.reserve(key, max, now, ttlMs),
    );
  }

  async peek(key: string): Promise<GuessBucket | undefined> {
    return this.#orInsurance(
      async (pool) => {
        const { rows } = await pool.query(`select in_flight, failed, blocked_until, expire from ${GUESS_TABLE} where key = $1`, [
          key,
        ]);
        const row = rows[0];
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
        await pool.query(SETTLE_SQL, [key, outcome.kind, max, blockMs, now]);
      },
      (memory) => memory.settle(key, outcome, now),
    );
  }

  async #orInsurance<T>(
    shared: (pool: Awaited<ReturnType<typeof nativePool>>) => Promise<T>,
    local: (memory: MemoryGuessBuckets) => Promise<T>,
  ): Promise<T> {
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
    const sql = `delete from ${GUESS_TABLE} where expire <= $1 and coalesce(blocked_until, 0) <= $1`;
    void nativePool(this.#orm)
      .then((pool) => pool.query(sql, [now]))
      .catch(() => undefined);
  }
}
