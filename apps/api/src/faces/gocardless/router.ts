/**
 * The GoCardless Bank Account Data face's HTTP layer at /gocardless/api/v2 (docs/faces/gocardless.md), as
 * `nordigen-node` calls it: JSON in and out, GoCardless's paths (a trailing slash or not), its
 * error shape and its rate-limit headers. The steps: the body parses (400), the access token is a
 * live one of its world (401), the credential's rate limit (429), then the endpoint (endpoints.ts).
 */
import {
  bearerToken,
  consumePoint,
  type Deps,
  type GocardlessCaller,
  verifyGocardlessToken,
  withFamilyShare,
} from '@sandbank/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { InFlight } from '../../http/in-flight.ts';
import { BODY_ERROR_TYPES, jsonBody } from '../../http/json-body.ts';
import type { Call } from './call.ts';
import { accountEndpoints, publicEndpoints, userEndpoints } from './endpoints.ts';
import { fromDomain, gcErrors, sendGocardlessError } from './errors.ts';

/** GoCardless's names for the API-level limit's headers (its docs: HTTP_X_RATELIMIT_*). */
const wireHeaders = (headers: Record<string, string>): Record<string, string> => ({
  HTTP_X_RATELIMIT_LIMIT: headers['RateLimit-Limit'] ?? '',
  HTTP_X_RATELIMIT_REMAINING: headers['RateLimit-Remaining'] ?? '',
  HTTP_X_RATELIMIT_RESET: headers['RateLimit-Reset'] ?? '',
  ...(headers['Retry-After'] ? { 'Retry-After': headers['Retry-After'] } : {}),
});

async function authenticate(call: Call): Promise<GocardlessCaller & { now: Date }> {
  const token = bearerToken(call.req.headers.authorization);
  if (!token) throw gcErrors.noCredentials();
  const caller = token.length <= 4096 ? await verifyGocardlessToken(call.em, call.deps, token, 'access') : null;
  if (!caller) throw gcErrors.invalidToken();
  const limiter = call.deps.rateLimits?.apiKey;
  if (limiter) {
    const outcome = await consumePoint(limiter, `gocardless:${caller.keyId}`);
    const headers = wireHeaders(outcome.headers);
    call.res.set(headers);
    if (!outcome.allowed) {
      throw gcErrors.rateLimited(`${limiter.points}/${limiter.duration}s`, outcome.headers['Retry-After'] ?? '1', headers);
    }
  }
  return caller;
}

export function gocardlessRouter(deps: Deps, inFlight: InFlight): Router {
  const router = express.Router({ caseSensitive: true });
  // nordigen-node sends JSON; any content type is read as JSON, as GoCardless's API does.
  // Depth-bounded like every body of the host (http/json-body.ts).
  router.use(jsonBody({ limit: '64kb', type: () => true, strict: true }));
  const fail = (req: Request, res: Response, error: unknown) => {
    const wire = fromDomain(error);
    if (wire.status === 500) req.log.error({ err: error }, 'GoCardless face: unexpected error');
    if (!res.headersSent) sendGocardlessError(res, wire);
  };
  const answer = (run: (call: Call) => Promise<unknown>, status: number) => (req: Request, res: Response) => {
    const call = { deps, em: deps.orm.em.fork(), req, res };
    inFlight.track(run(call).then((body) => void res.status(status).json(body))).catch((error: unknown) => fail(req, res, error));
  };
  const add = (method: 'get' | 'post', path: string, run: (call: Call) => Promise<unknown>) =>
    router[method](path, answer(run, method === 'post' ? 201 : 200));

  // The token endpoints are POSTs that answer 200, as GoCardless's do.
  for (const [path, run] of Object.entries(publicEndpoints)) router.post(path, answer(run, 200));
  for (const [key, run] of Object.entries({ ...userEndpoints, ...accountEndpoints })) {
    const [method, path] = key.split(' ') as ['get' | 'post', string];
    add(method, path, async (call) => {
      const caller = await authenticate(call);
      return withFamilyShare(call.deps, call.em, caller.userId, () => run({ ...call, caller }));
    });
  }
  router.use((_req, res) => sendGocardlessError(res, gcErrors.notFound()));
  router.use((error: { type?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (error.type !== undefined && BODY_ERROR_TYPES.has(error.type)) {
      sendGocardlessError(res, gcErrors.invalidJson());
      return;
    }
    fail(req, res, error);
  });
  return router;
}

/** The per-IP limit's refusal on the face's paths, in GoCardless's shape and headers. */
export function gocardlessRateLimited(_req: Request, res: Response, headers: Record<string, string>): void {
  const wire = wireHeaders(headers);
  const limit = `${headers['RateLimit-Limit'] ?? '?'} requests per address`;
  sendGocardlessError(res, gcErrors.rateLimited(limit, headers['Retry-After'] ?? '1', wire));
}
