/**
 * The Enable Banking face at /enablebanking (docs/faces/enablebanking.md), on the face kit: every call
 * is signed by an application's RS256 JWT (jwt.ts in the domain), then counted against the
 * application's rate limit, then run within its world's family share. Errors in Enable Banking's
 * shape (errors.ts); the routes are in endpoints.ts.
 */
import { bearerToken, type JwtRefusal, verifyApplicationJwt, withFamilyShare } from '@sandbank/core';
import { type Call, type FaceDefinition, limitCredential } from '../kit.ts';
import { routes } from './endpoints.ts';
import { ErrorResponseSchema, ebErrors, fromDomain, toAnswer } from './errors.ts';
import type { AppCall } from './input.ts';

/** Why a JWT was refused, in words for `detail` (the token itself is never echoed). */
const REFUSALS: Record<JwtRefusal, string> = {
  malformed: 'The JWT could not be read',
  algorithm: 'The JWT must be signed with RS256',
  'unknown-kid': 'The JWT’s kid is not the id of an application',
  signature: 'The JWT’s signature does not verify with the application’s public key',
  claims: 'The JWT must carry iss "enablebanking.com", aud "api.enablebanking.com", iat and exp',
  expired: 'The JWT has expired',
  'too-long': 'The JWT lives longer than 24 hours (exp - iat > 86400)',
};

async function authenticate(call: Call): Promise<AppCall> {
  const header = call.req.headers.authorization;
  if (!header) throw ebErrors.noAuthorization();
  const token = bearerToken(header);
  if (!token) throw ebErrors.unauthorized('The Authorization header must be "Bearer <JWT>"');
  const outcome = await verifyApplicationJwt(call.em, token);
  if (!outcome.ok) throw ebErrors.unauthorized(REFUSALS[outcome.refusal]);
  const limit = await limitCredential(call, `enablebanking:${outcome.application.id}`);
  call.res.set(limit.headers);
  if (!limit.allowed) throw ebErrors.rateLimited(limit.limit, limit.headers['Retry-After'] ?? '1', limit.headers);
  return { ...call, application: outcome.application };
}

export const enablebankingFace: FaceDefinition<AppCall> = {
  name: 'enablebanking',
  basePath: '/enablebanking',
  info: {
    title: 'Sandbank — the Enable Banking face',
    version: '1.0',
    description:
      "Enable Banking's API (AIS, and PIS executed as Sandbank payments) over a Sandbank world. Register an application with POST /v1/enablebanking/applications, then sign each call with an RS256 JWT: kid = the application's id, iss enablebanking.com, aud api.enablebanking.com, at most 24 h. See docs/faces/enablebanking.md.",
  },
  securityScheme: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "The application's own RS256 JWT (kid = the application's id)",
  },
  body: { limit: '64kb', anyContentType: true },
  prelude: authenticate,
  within: (call, work) => withFamilyShare(call.deps, call.em, call.application.userId, work),
  routes,
  errors: {
    answer: (error) => toAnswer(fromDomain(error)),
    bodyRefused: () => toAnswer(ebErrors.invalidBody()),
    notFound: () => toAnswer(ebErrors.notFound()),
    rateLimited: (_req, headers) =>
      toAnswer(
        ebErrors.rateLimited(`${headers['RateLimit-Limit'] ?? '?'} requests per address`, headers['Retry-After'] ?? '1', headers),
      ),
    schema: ErrorResponseSchema,
    statuses: {
      '401':
        'No Authorization header (AUTHORIZATION_NOT_PROVIDED), a JWT refused (UNAUTHORIZED_ACCESS), or an expired session (EXPIRED_SESSION)',
      '403': 'Balances or transactions the session’s consent does not cover (ACCESS_DENIED)',
      '404':
        'No such session, account or payment of this application (SESSION_DOES_NOT_EXIST, ACCOUNT_DOES_NOT_EXIST, PAYMENT_NOT_FOUND)',
      '409': 'An authorization decided already',
      '422':
        'Wrong request parameters, ASPSP, redirect URL, code, dates or continuation key; a closed session; deleting a payment still executing (PAYMENT_NOT_FINALIZED)',
      '429': 'The application’s rate limit, or the address’s',
    },
  },
};
