/**
 * The password brute-force guard (rate-limiter-flexible's recipe): before checking a password,
 * refuse a subject+IP with too many consecutive failures and an IP with too many failures
 * today; count a failure in both; forget the subject+IP's failures on success. It guards login
 * (subject: the e-mail) and every other password confirmation, such as closing an account
 * (subject: the user), so no endpoint is an unguarded password oracle.
 */
import { createHash } from 'node:crypto';
import type { Config } from '@sandbank/config';
import type { ErrorCode } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';
import { type RateLimits, refusalHeaders } from '../../protection/rate-limiters.ts';

export interface PasswordAttempt {
  /** Whose password is tried: the e-mail at login, `user:<id>` for a signed-in confirmation. */
  subject: string;
  ip: string;
  /** The error that means "wrong password" for this endpoint (default INVALID_CREDENTIALS). */
  failureCode?: ErrorCode;
  /** Response headers of the request; `Retry-After` and `RateLimit-*` go here when refused. */
  headers: Record<string, string>;
}

export async function guardPasswordAttempts<T>(
  limits: RateLimits | undefined,
  config: Config,
  attempt: PasswordAttempt,
  check: () => Promise<T>,
): Promise<T> {
  if (!limits) return check();
  const { loginFailsByEmailIp: byEmailIp, loginFailsByIpPerDay: byIp } = limits;
  // Hashed: keys stay short (the store's key is varchar(255)) and no e-mail is stored.
  const emailIpKey = `${createHash('sha256').update(attempt.subject).digest('base64url')}:${attempt.ip}`;
  const [emailIpRes, ipRes] = await Promise.all([byEmailIp.get(emailIpKey), byIp.get(attempt.ip)]);
  const refusal =
    ipRes && ipRes.consumedPoints >= byIp.points
      ? refusalHeaders(byIp.points, ipRes)
      : emailIpRes && emailIpRes.consumedPoints >= byEmailIp.points
        ? refusalHeaders(byEmailIp.points, emailIpRes)
        : undefined;
  if (refusal) {
    Object.assign(attempt.headers, refusal);
    throw new AppError('RATE_LIMITED', `Too many failed password attempts; retry after ${refusal['Retry-After']} s`);
  }
  try {
    const result = await check();
    if (emailIpRes) await byEmailIp.delete(emailIpKey);
    return result;
  } catch (error) {
    if (error instanceof AppError && error.appCode === (attempt.failureCode ?? 'INVALID_CREDENTIALS')) {
      await countFailure(limits, config, emailIpKey, attempt.ip);
    }
    throw error;
  }
}

async function countFailure(limits: RateLimits, config: Config, emailIpKey: string, ip: string): Promise<void> {
  const { loginFailsByEmailIp: byEmailIp, loginFailsByIpPerDay: byIp } = limits;
  // A full bucket rejects with its state; either way the failure is counted.
  const [emailIpRes] = await Promise.all([byEmailIp.consume(emailIpKey).catch((res) => res), byIp.consume(ip).catch(() => {})]);
  if (emailIpRes && emailIpRes.consumedPoints >= byEmailIp.points) {
    // The block starts at the last failure and lasts LOGIN_BLOCK_SECONDS.
    await byEmailIp.block(emailIpKey, config.rateLimits.login.blockSeconds);
  }
}
