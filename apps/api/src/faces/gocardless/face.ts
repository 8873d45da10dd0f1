/**
 * The GoCardless Bank Account Data face (docs/faces/gocardless.md) at /gocardless/api/v2, on the face
 * kit, as `nordigen-node` calls it: JSON in and out (any content type is read as JSON, as GoCardless's
 * API does), GoCardless's paths (a trailing slash or not), its error shape (errors.ts) and its
 * rate-limit headers. The steps: the body parses (400), the access token is a live one of its world
 * (401), the credential's rate limit (429), then the route (endpoints.ts) within the world's family
 * share. The token endpoints are public.
 */
import { bearerToken, verifyGocardlessToken, withFamilyShare } from '@sandbank/core';
import { z } from 'zod';
import { type Call, chargeCredential, type FaceDefinition, type OverLimit } from '../kit.ts';
import { routes } from './endpoints.ts';
import { fromDomain, gcErrors, toAnswer } from './errors.ts';
import type { GcCall } from './input.ts';
import { GocardlessErrorSchema, GocardlessFieldErrorSchema } from './wire.ts';

/** GoCardless's names for the API-level limit's headers (its docs: HTTP_X_RATELIMIT_*). */
const wireHeaders = (headers: Record<string, string>): Record<string, string> => ({
  HTTP_X_RATELIMIT_LIMIT: headers['RateLimit-Limit'] ?? '',
  HTTP_X_RATELIMIT_REMAINING: headers['RateLimit-Remaining'] ?? '',
  HTTP_X_RATELIMIT_RESET: headers['RateLimit-Reset'] ?? '',
  ...(headers['Retry-After'] ? { 'Retry-After': headers['Retry-After'] } : {}),
});

async function authenticate(call: Call): Promise<GcCall> {
  const token = bearerToken(call.req.headers.authorization);
  if (!token) throw gcErrors.noCredentials();
  const caller = token.length <= 4096 ? await verifyGocardlessToken(call.em, call.deps, token, 'access') : null;
  if (!caller) throw gcErrors.invalidToken();
  const refuse = ({ limit, retryAfter, headers }: OverLimit) => gcErrors.rateLimited(limit, retryAfter, headers);
  await chargeCredential(call, `gocardless:${caller.keyId}`, refuse, wireHeaders);
  return { ...call, caller };
}

export const gocardlessFace: FaceDefinition<GcCall> = {
  name: 'gocardless',
  basePath: '/gocardless/api/v2',
  info: {
    title: 'Sandbank — the GoCardless Bank Account Data face',
    version: '2.0',
    description:
      "GoCardless Bank Account Data's API (v2) over a Sandbank world, as nordigen-node calls it: secret_id = one of your API keys' id, secret_key = the key. Requisition statuses CR, GC, SA, LN, RJ, EX. See docs/faces/gocardless.md.",
  },
  securityScheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /token/new/' },
  document: { schemeName: 'jwt' },
  body: { limit: '64kb', anyContentType: true },
  prelude: authenticate,
  within: (call, work) => withFamilyShare(call.deps, call.em, call.caller.userId, work),
  routes,
  errors: {
    answer: (error) => toAnswer(fromDomain(error)),
    bodyRefused: () => toAnswer(gcErrors.invalidJson()),
    notFound: () => toAnswer(gcErrors.notFound()),
    rateLimited: (_req, headers) =>
      toAnswer(
        gcErrors.rateLimited(
          `${headers['RateLimit-Limit'] ?? '?'} requests per address`,
          headers['Retry-After'] ?? '1',
          wireHeaders(headers),
        ),
      ),
    schema: GocardlessErrorSchema,
    bodySchemas: { '400': z.union([GocardlessErrorSchema, GocardlessFieldErrorSchema]) },
    statuses: {
      '400':
        'A refused body field, keyed by its name (GocardlessFieldError, as the live service answers: also on POST /token/new/, whose document lists no 400), an invalid query parameter (`Invalid <field>`), or a date range outside the agreement',
      '401': 'Missing, invalid or expired token, wrong secrets, or an expired agreement (AccessExpiredError)',
      '403': 'A scope the agreement does not grant (AccessScopeError)',
      '404': 'Not found, not yours, or an account of a requisition not linked',
      '429': 'The credential’s rate limit, or an institution’s daily limit per account (RateLimitError)',
    },
  },
};
