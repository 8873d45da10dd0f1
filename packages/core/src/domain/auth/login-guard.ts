/**
 * The login brute-force guard (rate-limiter-flexible's recipe): before checking a password,
 * refuse an e-mail+IP with too many consecutive failures and an IP with too many failures
 * today; count a failure in both; forget the e-mail+IP's failures on success.
 */
import { createHash } from 'node:crypto';
import type { Config } from '@sandbank/config';
import { AppError } from '../../errors.ts';
import { type RateLimits, refusalHeaders } from '../../protection/rate-limits.ts';

export interface LoginAttempt {
  email: string;
  ip: string;
  /** Response headers of the request; `Retry-After` and `RateLimit-*` go here when refused. */
  headers: Record<string, string>;
}

export async function guardLogin<T>(
  limits: RateLimits | undefined,
  config: Config,
  attempt: LoginAttempt,
  login: () => Promise<T>,
): Promise<T> {
  if (!limits) return login();
  const { loginFailsByEmailIp: byEmailIp, loginFailsByIpPerDay: byIp } = limits;
  // Hashed: keys stay short (the store's key is varchar(255)) and no e-mail is stored.
  const emailIpKey = `${createHash('sha256').update(attempt.email).digest('base64url')}:${attempt.ip}`;
  const [emailIpRes, ipRes] = await Promise.all([byEmailIp.get(emailIpKey), byIp.get(attempt.ip)]);
  const refusal =
    ipRes && ipRes.consumedPoints >= byIp.points
      ? refusalHeaders(byIp.points, ipRes)
      : emailIpRes && emailIpRes.consumedPoints >= byEmailIp.points
        ? refusalHeaders(byEmailIp.points, emailIpRes)
        : undefined;
  if (refusal) {
    Object.assign(attempt.headers, refusal);
    throw new AppError('RATE_LIMITED', `Too many failed logins; retry after ${refusal['Retry-After']} s`);
  }
  try {
    const result = await login();
    if (emailIpRes) await byEmailIp.delete(emailIpKey);
    return result;
  } catch (error) {
    if (error instanceof AppError && error.appCode === 'INVALID_CREDENTIALS') {
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
