/**
 * `rateLimit(bucket, keyOf)`: a procedure middleware that takes one point from a bucket, puts
 * the `RateLimit-*` headers on the response (REST and tRPC, via `ctx.response`), and answers
 * 429 RATE_LIMITED with `Retry-After` once the bucket is empty.
 *
 * It composes with any procedure, including ones whose context carries more than the base
 * `Context`: `keyOf` receives that context. The pull endpoint uses it after API-key auth:
 *   apiKeyProcedure.use(rateLimit('apiKey', byApiKey))
 */
import type { Context } from '../context.ts';
import type { ApiKeyIdentity } from '../domain/integrations/authenticate-api-key.ts';
import { AppError } from '../errors.ts';
import { middleware } from '../trpc.ts';
import { clientKey } from './client-key.ts';
import { consumePoint, type RateLimitBucket } from './rate-limiters.ts';

export function rateLimit<TContext extends Context = Context>(bucket: RateLimitBucket, keyOf: (ctx: TContext) => string) {
  return middleware(async ({ ctx, next }) => {
    const limiter = ctx.deps.rateLimits?.[bucket];
    if (!limiter) return next();
    // The middleware runs on whatever context the procedure built before it.
    const outcome = await consumePoint(limiter, keyOf(ctx as TContext));
    Object.assign(ctx.response.headers, outcome.headers);
    if (!outcome.allowed) {
      throw new AppError('RATE_LIMITED', `Too many requests; retry after ${outcome.headers['Retry-After']} s`);
    }
    return next();
  });
}

/** The client IP (as Express resolved it under TRUST_PROXY); an IPv6 client counts as its /64. */
export const byIp = (ctx: Context): string => clientKey(ctx.ip);

/** The API key that authenticated the call (user and partner keys alike): one bucket per key. */
export const byApiKey = (ctx: Context & { apiKey: ApiKeyIdentity }): string => ctx.apiKey.keyId;
