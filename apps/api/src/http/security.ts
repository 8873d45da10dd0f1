/**
 * Headers on every response (helmet) and the CORS allow-list. The API answers JSON only, so its
 * CSP forbids everything; `/docs` sets its own. HSTS is opt-in (HSTS=true): only a deployment
 * that is served over HTTPS may promise it.
 */
import type { Config } from '@sandbank/config';
import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export const upgradesInsecureRequests = (config: Config): boolean => config.http.publicUrl.startsWith('https:');

export function securityHeaders(config: Config) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    strictTransportSecurity: config.http.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

/** Allowed origins only (no wildcard), no cookies or credentials: tokens travel in headers. */
export function corsPolicy(config: Config) {
  return cors({
    origin: config.http.corsOrigins,
    credentials: false,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key', 'Sandbank-Read-After'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: [
      'X-Request-Id',
      'Retry-After',
      'Sandbank-Read-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ],
    maxAge: 600,
  });
}

/**
 * `Cache-Control: no-store` on the API's own answers (REST, tRPC, SimpleFIN, their errors): they carry
 * a user's data, tokens or credentials, which no browser or shared cache may keep. Mounted after the
 * public pages (docs, console, /openapi.json), which stay cacheable.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
