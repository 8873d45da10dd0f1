/**
 * The `route` label of HTTP metrics: the path pattern of the procedure (`/v1/accounts/{id}`),
 * `/trpc/<procedure>`, or the operational route — never a raw path, so ids never become label
 * values and the series stay few.
 */
import { procedureMetas } from '@sandbank/core';
import { statementRouteLabel } from '../faces/statements/endpoints.ts';
import { CONSOLE_SESSION_ROUTES } from './console-session.ts';
import { paymentFileRouteLabel } from './payment-files.ts';
import type { RestRoutes } from './rest-routes.ts';

const OPERATIONAL = new Set(['/healthz', '/readyz', '/openapi.json', '/metrics', '/docs', '/v1/events/stream', '/mcp']);
const SIMPLEFIN_ROUTES = new Set(['/simplefin/accounts', '/simplefin/info']);

export interface RouteLabeler {
  (method: string, path: string): string;
  /** The REST pattern of a procedure and its `/trpc/` label, e.g. to count one kind of call. */
  labelsOf(procedure: string): string[];
}

export function createRouteLabeler(routes: RestRoutes): RouteLabeler {
  const procedures = new Set(procedureMetas().keys());
  const label = ((method: string, path: string): string => {
    if (OPERATIONAL.has(path)) return path;
    if (path.startsWith('/docs/')) return '/docs/assets';
    // The SimpleFIN routes are not procedures; a claim code is a secret and never a label value.
    if (path.startsWith('/simplefin/claim/')) return '/simplefin/claim/{code}';
    if (SIMPLEFIN_ROUTES.has(path)) return path;
    if (CONSOLE_SESSION_ROUTES.has(path)) return path;
    const statement = statementRouteLabel(path);
    if (statement) return statement;
    const paymentFile = paymentFileRouteLabel(path);
    if (paymentFile) return paymentFile;
    if (path.startsWith('/trpc/')) {
      const names = path.slice('/trpc/'.length).split(',');
      if (names.length > 1) return '/trpc/batch';
      return procedures.has(names[0] ?? '') ? `/trpc/${names[0]}` : '/trpc/unknown';
    }
    return routes.match(method, path)?.route.path ?? 'unmatched';
  }) as RouteLabeler;
  label.labelsOf = (procedure) => {
    const route = routes.ofProcedure(procedure);
    return [`/trpc/${procedure}`, ...(route ? [route.path] : [])];
  };
  return label;
}
