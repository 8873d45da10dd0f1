/**
 * `/metrics` (Prometheus text, prom-client): request counts and latency by method, route and
 * status; simulations answered 201; the transaction list cache's lookups; and, read at scrape
 * time with two aggregate queries (packages/core/src/domain/metrics/queries.ts), webhook deliveries
 * by status and the job queue by state. One registry per app, so tests can run several apps in one
 * process.
 */
import { countDeliveriesByStatus, countJobsByState, type Deps } from '@sandbank/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RestRoutes } from './rest-routes.ts';
import { createRouteLabeler } from './route-label.ts';

const SIMULATION_PROCEDURE = 'simulations.simulateTransaction';

export interface Metrics {
  record: RequestHandler;
  serve: RequestHandler;
}

export function createMetrics(deps: Deps, routes: RestRoutes): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelOf = createRouteLabeler(routes);
  const simulationRoutes = new Set(labelOf.labelsOf(SIMULATION_PROCEDURE));
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const simulations = new Counter({
    name: 'sandbank_simulations_total',
    help: 'Simulated transactions created (201) by this process',
    registers: [registry],
  });
  const { transactionLists } = deps;
  new Counter({
    name: 'sandbank_transaction_list_cache_lookups_total',
    help: 'History and pull pages: answered from the transaction list cache (hit), read again as they changed (stale) or read as no answer was kept (new)',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      if (!transactionLists) return;
      this.reset();
      for (const [result, count] of Object.entries(transactionLists.lookups)) this.inc({ result }, count);
    },
  });
  new Counter({
    name: 'sandbank_transaction_list_cache_reads_total',
    help: 'Whole reads of a history or pull page for the transaction list cache (requests in flight share one)',
    registers: [registry],
    collect() {
      if (!transactionLists) return;
      this.reset();
      this.inc(transactionLists.reads);
    },
  });
  addQueueGauges(deps, registry);

  const record: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const stop = duration.startTimer();
    res.on('finish', () => {
      const route = labelOf(req.method, req.originalUrl.split('?')[0] ?? '');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      stop(labels);
      requests.inc(labels);
      if (res.statusCode === 201 && simulationRoutes.has(route)) simulations.inc();
    });
    next();
  };
  const serve: RequestHandler = async (_req, res, next) => {
    try {
      const body = await registry.metrics();
      res.type(registry.contentType).send(body);
    } catch (error) {
      next(error);
    }
  };
  return { record, serve };
}

function addQueueGauges(deps: Deps, registry: Registry): void {
  const query = async <T>(
    read: (connection: ReturnType<Deps['orm']['em']['getConnection']>) => Promise<T>,
  ): Promise<T | undefined> => {
    try {
      return await read(deps.orm.em.getConnection());
    } catch (error) {
      deps.logger.warn({ err: error }, 'metrics query failed');
      return undefined;
    }
  };
  new Gauge({
    name: 'sandbank_webhook_deliveries',
    help: 'Webhook deliveries by status (pending, succeeded, failed)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = (await query(countDeliveriesByStatus)) ?? [];
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });
  new Gauge({
    name: 'sandbank_queue_jobs',
    help: 'graphile-worker jobs by state: ready (due, unlocked), scheduled (later), locked (running), failed (out of attempts)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const row = await query(countJobsByState);
      for (const [state, count] of Object.entries(row ?? {})) this.set({ state }, Number(count));
    },
  });
}
