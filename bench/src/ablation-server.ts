/**
 * The API as `apps/api/src/main.ts` builds it, with one layer left out (ABLATION=<variant>): the
 * process `ablation.ts` measures. Outer layers are switched off in `buildApp`; the layers inside
 * the router are priced by answering the simulation path with a handler that does less and less
 * of the router's work (the caller without the REST adapter, then without tRPC, then without zod,
 * auth, the ORM fork or serialisation).
 */
import { createServer } from 'node:http';
import { type BuildOptions, buildApp, type Layer } from '@sandbank/api';
import { createLogger, loadConfig, resolveSecrets } from '@sandbank/config';
import {
  appRouter,
  bearerToken,
  createContextInner,
  type Deps,
  SimulateTransactionInputSchema,
  SimulationOutputSchema,
  simulateTransaction,
  verifyAccessToken,
} from '@sandbank/core';
import { createOrm } from '@sandbank/db';
import type { Request, RequestHandler, Response } from 'express';

interface DirectLayers {
  zod: boolean;
  auth: boolean;
  fork: boolean;
  serialise: boolean;
}

/** The simulation without tRPC: what the procedure does, each part optional. */
function directRoute(deps: Deps, layers: DirectLayers): RequestHandler {
  const subjects = new Map<string, string>();
  const subjectOf = (token: string) => {
    let subject = subjects.get(token);
    if (!subject) {
      subject = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub;
      subjects.set(token, subject);
    }
    return subject;
  };
  return async (req: Request, res: Response) => {
    try {
      const input = layers.zod ? SimulateTransactionInputSchema.parse(req.body) : req.body;
      const token = bearerToken(req.headers.authorization) ?? '';
      const userId = layers.auth ? (await verifyAccessToken(deps, token)).id : subjectOf(token);
      const em = layers.fork ? deps.orm.em.fork() : deps.orm.em;
      const { transaction, balance, availableBalance } = await simulateTransaction(em, { userId, ...input });
      const body = { data: { transaction, balance, availableBalance } };
      if (layers.zod) SimulationOutputSchema.parse(body);
      if (layers.serialise) res.status(201).json(body);
      else res.status(201).end('{}');
    } catch (error) {
      res.status(500).json({ message: String(error) });
    }
  };
}

/** The procedure through tRPC's server-side caller: everything but the REST adapter's matching and input. */
function callerRoute(deps: Deps): RequestHandler {
  return async (req: Request, res: Response) => {
    try {
      const ctx = createContextInner({
        deps,
        requestId: req.id,
        authorization: req.headers.authorization,
        ip: req.ip ?? '',
        log: req.log,
      });
      const result = await appRouter.createCaller(ctx).simulations.simulateTransaction(req.body);
      res.status(201).json(result);
    } catch (error) {
      res.status(500).json({ message: String(error) });
    }
  };
}

const simulationRoute = (handler: RequestHandler) => ({ method: 'post' as const, path: '/v1/simulations/transaction', handler });

const all: DirectLayers = { zod: true, auth: true, fork: true, serialise: true };
export const VARIANTS = {
  full: () => undefined,
  'without request id': () => ({ without: new Set<Layer>(['request-id']) }),
  'without request log': () => ({ without: new Set<Layer>(['request-log']) }),
  'without metrics': () => ({ without: new Set<Layer>(['metrics']) }),
  'without helmet': () => ({ without: new Set<Layer>(['helmet']) }),
  'without CORS': () => ({ without: new Set<Layer>(['cors']) }),
  'without per-IP limit': () => ({ without: new Set<Layer>(['rate-limit']) }),
  'tRPC caller (no REST adapter)': (deps: Deps) => ({ route: simulationRoute(callerRoute(deps)) }),
  'direct (no tRPC)': (deps: Deps) => ({ route: simulationRoute(directRoute(deps, all)) }),
  'direct, no zod': (deps: Deps) => ({ route: simulationRoute(directRoute(deps, { ...all, zod: false })) }),
  'direct, no auth': (deps: Deps) => ({ route: simulationRoute(directRoute(deps, { ...all, auth: false })) }),
  'direct, no ORM fork': (deps: Deps) => ({ route: simulationRoute(directRoute(deps, { ...all, fork: false })) }),
  'direct, no serialisation': (deps: Deps) => ({ route: simulationRoute(directRoute(deps, { ...all, serialise: false })) }),
} satisfies Record<string, (deps: Deps) => BuildOptions['ablation']>;
export type Variant = keyof typeof VARIANTS;

if (import.meta.main) {
  const variant = (process.env.ABLATION ?? 'full') as Variant;
  const config = loadConfig();
  const logger = createLogger(config, 'api');
  const orm = await createOrm({ url: config.database.url ?? '', poolSize: config.database.poolSize });
  const deps: Deps = { config, secrets: resolveSecrets(config), orm, logger };
  const app = buildApp(deps, { ablation: VARIANTS[variant](deps) });
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  server.once('error', (error) => {
    console.error(`ablation server: ${error.message}`);
    process.exit(1);
  });
  server.listen(config.http.port, config.http.host);
  process.on('SIGTERM', () => {
    server.close();
    server.closeIdleConnections();
    void orm.close().then(() => process.exit(0));
  });
}
