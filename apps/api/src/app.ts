/**
 * Builds the HTTP app from its dependencies without listening, so tests run the real app on an
 * ephemeral port. `main.ts` is the process that listens.
 */
import { buildOpenApiDocument, type Deps, partnerKeys } from '@sandbank/core';
import { checkReadiness } from '@sandbank/db';
import cors from 'cors';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { errorHandler, notFoundHandler, sendError } from './http/errors.ts';
import { requestContext } from './http/request-context.ts';
import { restHandler, trpcHandler } from './http/trpc-handlers.ts';

export type { Deps } from '@sandbank/core';

export function buildApp(deps: Deps): Express {
  const { config } = deps;
  partnerKeys(config); // hashes the partner keys once, before the first request
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy);
  app.set('etag', false);

  app.use(requestContext(deps.logger));
  app.use(
    helmet({
      strictTransportSecurity: config.http.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    }),
  );
  app.use(
    cors({
      origin: config.http.corsOrigins,
      credentials: false,
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
      maxAge: 600,
    }),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  app.get('/readyz', async (req, res) => {
    const readiness = await checkReadiness(deps.orm);
    if (readiness.ready) {
      res.json({ data: { status: 'ready' } });
      return;
    }
    sendError(res, { traceId: req.id, code: 'SERVICE_UNAVAILABLE', message: `Not ready: ${readiness.reason}` });
  });
  let openApiDocument: string | undefined;
  app.get('/openapi.json', (_req, res) => {
    openApiDocument ??= JSON.stringify(buildOpenApiDocument({ serverUrl: config.http.publicUrl }));
    res.type('application/json').send(openApiDocument);
  });

  app.use(express.json({ limit: '64kb' }));
  app.use('/trpc', trpcHandler(deps));
  app.use(restHandler(deps));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
