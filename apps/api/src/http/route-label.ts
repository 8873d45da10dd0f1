/**
 * The `route` label of HTTP metrics: the path pattern of the procedure (`/v1/accounts/{id}`),
 * `/trpc/<procedure>`, or the operational route — never a raw path, so ids never become label
 * values and the series stay few.
 */
import { procedureMetas } from '@sandbank/core';

const OPERATIONAL = new Set(['/healthz', '/readyz', '/openapi.json', '/metrics', '/docs']);
const SIMPLEFIN_ROUTES = new Set(['/simplefin/accounts', '/simplefin/info']);

interface RestRoute {
  method: string;
  pattern: string;
  regex: RegExp;
  procedure: string;
}

export interface RouteLabeler {
  (method: string, path: string): string;
  /** The REST pattern of a procedure and its `/trpc/` label, e.g. to count one kind of call. */
  labelsOf(procedure: string): string[];
}

export function createRouteLabeler(): RouteLabeler {
  const rest: RestRoute[] = [];
  const procedures = new Set<string>();
  for (const [name, meta] of procedureMetas()) {
    procedures.add(name);
    if (!meta.openapi) continue;
    const pattern = meta.openapi.path.replace(/:(\w+)/g, '{$1}');
    const source = pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
    rest.push({ method: meta.openapi.method, pattern, regex: new RegExp(`^${source}/?$`, 'i'), procedure: name });
  }

  const label = ((method: string, path: string): string => {
    if (OPERATIONAL.has(path)) return path;
    if (path.startsWith('/docs/')) return '/docs/assets';
    // The SimpleFIN routes are not procedures; a claim code is a secret and never a label value.
    if (path.startsWith('/simplefin/claim/')) return '/simplefin/claim/{code}';
    if (SIMPLEFIN_ROUTES.has(path)) return path;
    if (path.startsWith('/trpc/')) {
      const names = path.slice('/trpc/'.length).split(',');
      if (names.length > 1) return '/trpc/batch';
      return procedures.has(names[0] ?? '') ? `/trpc/${names[0]}` : '/trpc/unknown';
    }
    const route = rest.find((candidate) => candidate.method === method && candidate.regex.test(path));
    return route?.pattern ?? 'unmatched';
  }) as RouteLabeler;
  label.labelsOf = (procedure) => {
    const route = rest.find((candidate) => candidate.procedure === procedure);
    return [`/trpc/${procedure}`, ...(route ? [route.pattern] : [])];
  };
  return label;
}
