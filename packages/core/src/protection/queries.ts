/**
 * The SQL of the password guard's shared buckets (docs/architecture.md, "The schema"): one named
 * function per statement, on the driver's pool (the guard runs outside any request's EntityManager).
 */
import type { nativePool } from '@sandbank/db';

export type Pool = Awaited<ReturnType<typeof nativePool>>;

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

/** Takes a guess's point unless the bucket is full or blocked (a fresh bucket once it expired); whether it was taken. */
export async function reserveGuess(
  pool: Pool,
  { key, max, now, ttlMs }: { key: string; max: number; now: number; ttlMs: number },
): Promise<boolean> {
  return (await pool.query(RESERVE_SQL, [key, now, ttlMs, max])).rowCount === 1;
}

export interface GuessBucketRow {
  in_flight: number;
  failed: number;
  blocked_until: string | number | null;
  expire: string | number;
}

/** The bucket as stored, or undefined. */
export async function selectGuessBucket(pool: Pool, key: string): Promise<GuessBucketRow | undefined> {
  const { rows } = await pool.query<GuessBucketRow>(
    `select in_flight, failed, blocked_until, expire from ${GUESS_TABLE} where key = $1`,
    [key],
  );
  return rows[0];
}

/** Gives back a reserved point with the guess's outcome (a failure counts, and may block). */
export async function settleGuess(
  pool: Pool,
  { key, kind, max, blockMs, now }: { key: string; kind: string; max: number; blockMs: number | null; now: number },
): Promise<void> {
  await pool.query(SETTLE_SQL, [key, kind, max, blockMs, now]);
}

/** Deletes the buckets that expired and block nothing. */
export async function sweepGuesses(pool: Pool, now: number): Promise<void> {
  await pool.query(`delete from ${GUESS_TABLE} where expire <= $1 and coalesce(blocked_until, 0) <= $1`, [now]);
}
