/**
 * The password brute-force guard. It guards login (subject: the e-mail) and every other password
 * confirmation, such as closing an account (subject: the user), so no endpoint is an unguarded
 * password oracle.
 *
 * Reserve first: a guess takes a slot in both buckets (subject+IP, consecutive failures; IP,
 * failures per day) *before* its password is checked. A reservation is one conditional increment
 * in the shared store (protection/guess-buckets.ts) that refuses without counting, so however many
 * guesses arrive at once, at most the bucket's size are checked. A wrong password turns its slot
 * into a failure; the one that fills the subject+IP bucket blocks it for LOGIN_BLOCK_SECONDS (and
 * the count starts afresh behind the block). A right one (or a call that ends before any password
 * is checked) gives the slot back, and a success forgets the subject+IP's failures. Give-backs
 * never lower a block or a failure count (issue 27 review).
 *
 * A bucket full only of guesses still being checked is no verdict yet: the call waits up to
 * RESERVE_WAIT_MS for a slot (or for the block those guesses start) and otherwise answers
 * Retry-After: 1, never a block's length. IPs are keyed as `clientKey` (IPv6: the /64).
 *
 * No HTTP here: a refusal is an `AppError` with `retryAfterSeconds`; the HTTP layer writes it as
 * `Retry-After`.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '@sandbank/config';
import type { ErrorCode } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';
import { clientKey } from '../../protection/client-key.ts';
import type { GuessBuckets } from '../../protection/guess-buckets.ts';
import type { RateLimits } from '../../protection/rate-limiters.ts';

export interface PasswordAttempt {
  /** Whose password is tried: the e-mail at login, `user:<id>` for a signed-in confirmation. */
  subject: string;
  ip: string;
  /** The error that means "wrong password" for this endpoint (default INVALID_CREDENTIALS). */
  failureCode?: ErrorCode;
}

interface Bucket {
  key: string;
  max: number;
}

const DAY_MS = 86_400_000;
/** How long a call waits for a slot in a bucket full of guesses still being checked. */
const RESERVE_WAIT_MS = 2_000;
const POLL_MS = 25;

export async function guardPasswordAttempts<T>(
  limits: RateLimits | undefined,
  config: Config,
  attempt: PasswordAttempt,
  check: () => Promise<T>,
): Promise<T> {
  if (!limits) return check();
  const store = limits.guesses;
  const { maxConsecutiveFails, maxFailsPerIpPerDay, blockSeconds } = config.rateLimits.login;
  const ip = clientKey(attempt.ip);
  // Hashed: keys stay short (the store's key is varchar(255)) and no e-mail is stored.
  const subject = createHash('sha256').update(attempt.subject).digest('base64url');
  const bySubjectIp: Bucket = { key: `subject_ip:${subject}:${ip}`, max: maxConsecutiveFails };
  const byIp: Bucket = { key: `ip_day:${ip}`, max: maxFailsPerIpPerDay };
  await reserve(store, bySubjectIp, byIp);
  let result: T;
  try {
    result = await check();
  } catch (error) {
    const now = Date.now();
    if (error instanceof AppError && error.appCode === (attempt.failureCode ?? 'INVALID_CREDENTIALS')) {
      await Promise.all([
        store.settle(bySubjectIp.key, { kind: 'fail', max: bySubjectIp.max, blockMs: blockSeconds * 1000 }, now),
        store.settle(byIp.key, { kind: 'fail', max: byIp.max }, now),
      ]);
    } else {
      await Promise.all([
        store.settle(bySubjectIp.key, { kind: 'giveBack' }, now),
        store.settle(byIp.key, { kind: 'giveBack' }, now),
      ]);
    }
    throw error;
  }
  const now = Date.now();
  await Promise.all([store.settle(bySubjectIp.key, { kind: 'success' }, now), store.settle(byIp.key, { kind: 'giveBack' }, now)]);
  return result;
}

/** Takes a slot in both buckets, or none; waits a little while a bucket is full only of guesses in flight. */
async function reserve(store: GuessBuckets, bySubjectIp: Bucket, byIp: Bucket): Promise<void> {
  const deadline = Date.now() + RESERVE_WAIT_MS;
  for (;;) {
    const now = Date.now();
    let refusedBy = bySubjectIp;
    if (await store.reserve(bySubjectIp.key, bySubjectIp.max, now, DAY_MS)) {
      if (await store.reserve(byIp.key, byIp.max, now, DAY_MS)) return;
      await store.settle(bySubjectIp.key, { kind: 'giveBack' }, now);
      refusedBy = byIp;
    }
    const ms = await verdictMs(store, refusedBy, Date.now());
    if (ms !== undefined) throw rateLimited(ms);
    if (Date.now() + POLL_MS > deadline) throw rateLimited(1000);
    await sleep(POLL_MS);
  }
}

/** How long a refusing bucket stays shut: a block, or a day's failures; undefined while only guesses in flight fill it. */
async function verdictMs(store: GuessBuckets, bucket: Bucket, now: number): Promise<number | undefined> {
  const state = await store.peek(bucket.key);
  if (!state || state.expire <= now) return undefined;
  if (state.blockedUntil !== null && state.blockedUntil > now) return state.blockedUntil - now;
  if (state.failed >= bucket.max) return state.expire - now;
  return undefined;
}

function rateLimited(ms: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(ms / 1000));
  return new AppError('RATE_LIMITED', `Too many failed password attempts; retry after ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });
}
