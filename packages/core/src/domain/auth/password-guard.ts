/**
 * The password brute-force guard. It guards login (subject: the e-mail) and every other password
 * confirmation, such as closing an account (subject: the user), so no endpoint is an unguarded
 * password oracle.
 *
 * Reserve first: a guess takes its point from both buckets (subject+IP, consecutive failures; IP,
 * failures per day) *before* its password is checked. The store's consume is one atomic
 * increment (an `INSERT … ON CONFLICT … RETURNING` with the Postgres store, shared by replicas), so
 * however many guesses arrive at once, at most the bucket's size hold a point and get checked; the
 * others are refused (429) unchecked. A wrong password keeps its point. A right one (or a call that
 * fails before any password is checked) gives the points back, and a success forgets the
 * subject+IP's failures. rate-limiter-flexible's own recipe (`get` first, `consume` on failure)
 * races: a parallel burst had every guess checked (issue 27).
 *
 * No HTTP here: a refusal is an `AppError` with `retryAfterSeconds`; the HTTP layer writes it as
 * `Retry-After`.
 */
import { createHash } from 'node:crypto';
import type { Config } from '@sandbank/config';
import type { ErrorCode } from '@sandbank/schemas';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../errors.ts';
import type { RateLimits } from '../../protection/rate-limiters.ts';

export interface PasswordAttempt {
  /** Whose password is tried: the e-mail at login, `user:<id>` for a signed-in confirmation. */
  subject: string;
  ip: string;
  /** The error that means "wrong password" for this endpoint (default INVALID_CREDENTIALS). */
  failureCode?: ErrorCode;
}

interface Reservation {
  /** The subject+IP bucket's count with this guess in it. */
  consecutive: number;
}

export async function guardPasswordAttempts<T>(
  limits: RateLimits | undefined,
  config: Config,
  attempt: PasswordAttempt,
  check: () => Promise<T>,
): Promise<T> {
  if (!limits) return check();
  const { loginFailsByEmailIp: bySubjectIp, loginFailsByIpPerDay: byIp } = limits;
  // Hashed: keys stay short (the store's key is varchar(255)) and no e-mail is stored.
  const subjectIpKey = `${createHash('sha256').update(attempt.subject).digest('base64url')}:${attempt.ip}`;
  const reservation = await reserve(limits, config, subjectIpKey, attempt.ip);
  let result: T;
  try {
    result = await check();
  } catch (error) {
    if (error instanceof AppError && error.appCode === (attempt.failureCode ?? 'INVALID_CREDENTIALS')) {
      // The guess that filled the bucket starts the block, which lasts LOGIN_BLOCK_SECONDS from it.
      if (reservation.consecutive >= bySubjectIp.points) {
        await bySubjectIp.block(subjectIpKey, config.rateLimits.login.blockSeconds);
      }
    } else {
      await Promise.all([giveBack(bySubjectIp, subjectIpKey), giveBack(byIp, attempt.ip)]);
    }
    throw error;
  }
  await Promise.all([bySubjectIp.delete(subjectIpKey), giveBack(byIp, attempt.ip)]);
  return result;
}

/** Takes one point from both buckets, or none: a refused guess gives back what it took. */
async function reserve(limits: RateLimits, config: Config, subjectIpKey: string, ip: string): Promise<Reservation> {
  const { loginFailsByEmailIp: bySubjectIp, loginFailsByIpPerDay: byIp } = limits;
  const [subjectIp, perDay] = await Promise.all([take(bySubjectIp, subjectIpKey), take(byIp, ip)]);
  if (subjectIp.granted && perDay.granted) return { consecutive: subjectIp.res.consumedPoints };
  // A bucket that refused stays over its size (its expiry does not move); the other gets its point back.
  await Promise.all([
    subjectIp.granted ? giveBack(bySubjectIp, subjectIpKey) : undefined,
    perDay.granted ? giveBack(byIp, ip) : undefined,
  ]);
  // A full subject+IP bucket whose last guesses are still being checked is not blocked yet (its key
  // lasts a day); its block will end LOGIN_BLOCK_SECONDS after the last of them.
  const ms = perDay.granted
    ? Math.min(subjectIp.res.msBeforeNext, config.rateLimits.login.blockSeconds * 1000)
    : perDay.res.msBeforeNext;
  const retryAfterSeconds = Math.max(1, Math.ceil(ms / 1000));
  throw new AppError('RATE_LIMITED', `Too many failed password attempts; retry after ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });
}

async function take(limiter: RateLimiterAbstract, key: string): Promise<{ granted: boolean; res: RateLimiterRes }> {
  try {
    return { granted: true, res: await limiter.consume(key) };
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return { granted: false, res: refusal };
    throw refusal;
  }
}

/**
 * Returns a reserved point. A key that expired since the reservation would go below zero (a
 * free guess later): it is deleted instead.
 */
async function giveBack(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const res = await limiter.reward(key);
  if (res.consumedPoints < 0) await limiter.delete(key);
}
