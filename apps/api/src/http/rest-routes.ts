/**
 * The REST routes of the one router, read once from its procedures' `openapi` metas: what the REST
 * adapter serves, what the 405 handler offers in `Allow`, and what the metrics name a request by.
 *
 * How a request becomes a procedure's input follows trpc-to-openapi's rules (it writes the OpenAPI
 * document from the same metas), decided here once per route with its own utilities: paths match in
 * any case, with or without a trailing slash; GET and DELETE read the query string, the other
 * methods the JSON body; query strings are coerced where the schema has numbers or booleans.
 */
import { appRouter } from '@sandbank/core';
import type { AnyTRPCProcedure } from '@trpc/server';
import {
  acceptsRequestBody,
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeKind,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
} from 'trpc-to-openapi';

export interface RestRoute {
  method: string;
  /** The path as the OpenAPI document writes it (`/v1/accounts/{id}`): also the metrics' label. */
  path: string;
  /** The procedure's path in the router (`transactions.listAccountTransactions`). */
  procedure: string;
  type: 'query' | 'mutation';
  /** GET and DELETE read the query string, the other methods the JSON body. */
  useBody: boolean;
  /** False when the procedure takes no input (`z.void()`): it then gets none. */
  takesInput: boolean;
  /** Query parameters the input declares as arrays: a single value becomes a one-element array. */
  arrayKeys: string[];
  successStatus: number;
}

interface RestMatch {
  route: RestRoute;
  /** The path's `{name}` segments, as they came (not percent-decoded). */
  params: Record<string, string>;
}

export interface RestRoutes {
  /** The route a request's method and path name. */
  match(method: string, path: string): RestMatch | undefined;
  /** The methods a path answers, whatever the request's own (for 405's `Allow`). */
  methodsAt(path: string): string[];
  /** The route of a procedure, if it has one. */
  ofProcedure(procedure: string): RestRoute | undefined;
}

/** One method's routes: literal paths by their lower-cased form, templated ones in router order. */
interface MethodTable {
  literal: Map<string, RestRoute>;
  templated: { route: RestRoute; pattern: RegExp }[];
}

function isArrayField(shape: unknown): boolean {
  if (instanceofZodTypeKind(shape as never, 'array')) return true;
  return instanceofZodTypeOptional(shape as never) && instanceofZodTypeKind((shape as { unwrap(): never }).unwrap(), 'array');
}

function routeOf(
  path: string,
  type: 'query' | 'mutation',
  procedure: AnyTRPCProcedure,
  method: string,
  openApiPath: string,
  successStatus?: number,
): RestRoute {
  const useBody = acceptsRequestBody(method as never);
  const schema = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
  const isObject = instanceofZodTypeObject(schema);
  // Strings from a query or path become numbers and booleans where the schema says so: it sets
  // `coerce` on those fields of the shared schema itself. Not for a JSON body, though
  // trpc-to-openapi does that too: `"reset": "false"` would be `true` (and `/trpc` would coerce too).
  if (isObject && !useBody) coerceSchema(schema);
  return {
    method,
    path: openApiPath,
    procedure: path,
    type,
    useBody,
    takesInput: !instanceofZodTypeLikeVoid(schema),
    arrayKeys:
      isObject && !useBody
        ? Object.entries(schema.shape as Record<string, unknown>)
            .filter(([, field]) => isArrayField(field))
            .map(([key]) => key)
        : [],
    successStatus: successStatus ?? 200,
  };
}

/** The routes of the router's procedures (another record of procedures in tests). */
export function restRoutes(procedures: Record<string, unknown> = appRouter._def.procedures): RestRoutes {
  const tables = new Map<string, MethodTable>();
  const byProcedure = new Map<string, RestRoute>();
  forEachOpenApiProcedure(procedures as never, ({ path, type, procedure, meta }) => {
    if (type === 'subscription') return;
    const { method } = meta.openapi;
    const successStatus = (meta as { successStatus?: number }).successStatus;
    const route = routeOf(path, type, procedure as AnyTRPCProcedure, method, meta.openapi.path, successStatus);
    byProcedure.set(path, route);
    const normalised = normalizePath(meta.openapi.path);
    const table: MethodTable = tables.get(method) ?? { literal: new Map(), templated: [] };
    tables.set(method, table);
    const duplicate =
      table.literal.has(normalised.toLowerCase()) ||
      table.templated.some((other) => normalizePath(other.route.path).toLowerCase() === normalised.toLowerCase());
    if (duplicate) throw new Error(`${method} ${meta.openapi.path} is the path of two procedures (${path} is the second)`);
    if (normalised.includes('{')) table.templated.push({ route, pattern: getPathRegExp(normalised) });
    else table.literal.set(normalised.toLowerCase(), route);
  });

  const inTable = (table: MethodTable, path: string): RestMatch | undefined => {
    const literal = table.literal.get(path.toLowerCase());
    if (literal) return { route: literal, params: {} };
    for (const { route, pattern } of table.templated) {
      const groups = pattern.exec(path)?.groups;
      if (groups) return { route, params: groups };
    }
    return undefined;
  };

  return {
    match(method, path) {
      const table = tables.get(method);
      return table && inTable(table, normalizePath(path));
    },
    methodsAt(path) {
      const normalised = normalizePath(path);
      return [...tables].filter(([, table]) => inTable(table, normalised)).map(([method]) => method);
    },
    ofProcedure: (procedure) => byProcedure.get(procedure),
  };
}
