/**
 * Builds the HTTP app from its dependencies without listening, so tests run the real app on an
 * ephemeral port. `main.ts` is the process that listens.
 *
 * Order matters: trace id and metrics first (every response is logged and counted), then
 * headers and CORS (so errors and 429s carry them too), `/healthz` before the rate limit (it
 * must never touch the database), then the per-IP limit for everything else; the public pages (docs,
 * console, the OpenAPI document) before `no-store`, which covers every answer given for a user.
 */
import {
  applyFrameworkWorkarounds,
  buildOpenApiDocument,
  createRateLimits,
  type Deps,
  familyShares,
  partnerKeys,
  TransactionListCache,
} from '@sandbank/core';
import { checkReadiness } from '@sandbank/db';
import express, { type Express } from 'express';
import { enablebankingFace } from './faces/enablebanking/face.ts';
import { gocardlessFace } from './faces/gocardless/face.ts';
import { faceRefusals, mountFace } from './faces/kit.ts';
import { serveFaceDocument } from './faces/openapi-json.ts';
import { plaidFace } from './faces/plaid/face.ts';
import { simplefinFace } from './faces/simplefin/face.ts';
import { statementsFace } from './faces/statements/face.ts';
import { consoleRouter } from './http/console.ts';
import { CONSOLE_SESSION_PATH, consoleSessionRouter } from './http/console-session.ts';
import { docsRouter } from './http/docs.ts';
import { errorHandler, notFoundHandler, sendError } from './http/errors.ts';
import { type EventStreams, eventStreamHandler, eventStreams, STREAM_PATH } from './http/event-stream.ts';
import { type InFlight, inFlightRequests } from './http/in-flight.ts';
import { jsonBody } from './http/json-body.ts';
import { createMetrics } from './http/metrics.ts';
import { paymentFilesRouter } from './http/payment-files.ts';
import { limitPerIp } from './http/rate-limit.ts';
import { requestContext } from './http/request-context.ts';
import { restHandler } from './http/rest-handler.ts';
import { restRoutes } from './http/rest-routes.ts';
import { corsPolicy, noStore, securityHeaders, upgradesInsecureRequests } from './http/security.ts';

import { createContextFactory, logInternal, trpcHandler } from './http/trpc-handlers.ts';
import { mcpRouter } from './mcp/http.ts';

export type { Deps } from '@sandbank/core';

/** How long a request waits for its family's share of the process before 429 (protection/family-shares.ts). */
const FAMILY_WAIT_MS = 10_000;

export interface BuildOptions {
  /** Where the handlers count the requests still running, for the process's shutdown (default: a counter of its own). */
  inFlight?: InFlight;
  /**
   * True while the process's own start-up (its migration run) has not finished: `/readyz` is then
   * 503 whatever the database says, since another replica may have migrated it already (default: never).
   */
  starting?: () => boolean;
  /** The open `GET /v1/events/stream` connections, for the process's shutdown to end them (default: a registry of its own). */
  eventStreams?: EventStreams;
}

export function buildApp(baseDeps: Deps, options: BuildOptions = {}): Express {
  applyFrameworkWorkarounds();
  const inFlight = options.inFlight ?? inFlightRequests();
  const { config } = baseDeps;
  const rateLimits = config.rateLimits.enabled ? (baseDeps.rateLimits ?? createRateLimits(config, baseDeps.orm)) : undefined;
  const deps: Deps = {
    ...baseDeps,
    rateLimits,
    familyShares: baseDeps.familyShares ?? familyShares({ limit: config.limits.familyRequests, waitMs: FAMILY_WAIT_MS }),
    transactionLists: baseDeps.transactionLists ?? new TransactionListCache(),
  };
  const routes = restRoutes();
  const metrics = createMetrics(deps, routes);
  partnerKeys(config); // hashes the partner keys once, before the first request
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy);
  app.set('etag', false);

  app.use(requestContext(deps.logger));
  app.use(metrics.record);
  app.use(securityHeaders(config));
  app.use(corsPolicy(config));

  app.get('/healthz', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  if (rateLimits) {
    app.use(
      limitPerIp(rateLimits.ip, {
        ...faceRefusals([plaidFace, simplefinFace, gocardlessFace, enablebankingFace]),
      }),
    );
  }
  app.get('/readyz', async (req, res) => {
    const readiness = options.starting?.()
      ? { ready: false as const, reason: 'still starting (migrations)' }
      : await checkReadiness(deps.orm);
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
  serveFaceDocument(app, plaidFace, config.http.publicUrl);
  serveFaceDocument(app, gocardlessFace, config.http.publicUrl);
  app.use('/docs', docsRouter({ upgradeInsecureRequests: upgradesInsecureRequests(config) }));
  app.use('/console', consoleRouter({ upgradeInsecureRequests: upgradesInsecureRequests(config) }));
  app.get('/metrics', metrics.serve);
  serveFaceDocument(app, simplefinFace, config.http.publicUrl);
  serveFaceDocument(app, enablebankingFace, config.http.publicUrl);
  app.use(noStore);
  mountFace(app, simplefinFace, deps, inFlight);
  serveFaceDocument(app, statementsFace, config.http.publicUrl);
  mountFace(app, statementsFace, deps, inFlight);
  app.use(paymentFilesRouter(deps, inFlight));
  app.get(STREAM_PATH, eventStreamHandler(deps, inFlight, options.eventStreams ?? eventStreams()));
  mountFace(app, plaidFace, deps, inFlight);
  mountFace(app, gocardlessFace, deps, inFlight);
  mountFace(app, enablebankingFace, deps, inFlight);

  // A scenario may carry up to 50,000 transactions (applied, or a child world made from one); every other body stays within 64 KiB.
  app.use(
    [
      '/v1/scenarios/apply',
      '/trpc/scenarios.applyScenario',
      '/v1/worlds',
      '/trpc/worlds.createWorld',
      '/v1/sandbox/snapshots',
      '/trpc/worlds.takeSnapshot',
    ],
    jsonBody({ limit: '16mb' }),
  );
  // The REST adapter and tRPC's handler both take the body parsed here, its depth bounded first (json-body.ts).
  app.use(jsonBody({ limit: '64kb' }));
  // The console's refresh cookie (console-session.ts): an HTTP route because cookies are the browser's transport.
  app.use(CONSOLE_SESSION_PATH, consoleSessionRouter(deps, inFlight));
  app.use('/trpc', trpcHandler(deps, inFlight));
  // MCP for coding agents (docs/guides/mcp.md): the same procedures as tools, with the same credentials.
  app.use(mcpRouter(deps, inFlight));
  app.use(restHandler(routes, inFlight, { createContext: createContextFactory(deps), onError: logInternal }));
  app.use(notFoundHandler(routes));
  app.use(errorHandler);
  return app;
}
