/**
 * The REST half of the one router: every procedure with an `openapi` meta answers its method and
 * path here, as the SPEC's contract (`{ data }` or our error body, the procedure's status).
 *
 * trpc-to-openapi still writes the OpenAPI document (openapi.ts) and its rules decide how a request
 * becomes the procedure's input — its own utilities, applied here once per route at start-up. Its
 * node-http handler is not used: per request it built a URL, a fresh caller proxy, an abort signal
 * nothing read and an error body we then replaced, and measured ~180 µs of the API's CPU on a
 * history page that costs ~600 in all (bench/README.md, "The REST adapter").
 */

import { AppError, appRouter, type Context, statusOf, toErrorBody } from '@sandbank/core';
import { type AnyTRPCProcedure, callTRPCProcedure, getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import type { Request, RequestHandler, Response } from 'express';
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
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors.ts';
import type { InFlight } from './in-flight.ts';

interface Route {
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
  /** The path's `{name}` segments, from a pattern that matches the normalised path in any case. */
  pattern?: RegExp;
}

/** Each method's routes: static paths by their lower-cased form, templated ones in router order. */
interface RouteTable {
  exact: Map<string, Route>;
  templated: Route[];
}

function isArrayField(shape: unknown): boolean {
  if (instanceofZodTypeKind(shape as never, 'array')) return true;
  return instanceofZodTypeOptional(shape as never) && instanceofZodTypeKind((shape as { unwrap(): never }).unwrap(), 'array');
}

/** The routes of every OpenAPI procedure, with trpc-to-openapi's input rules settled once. */
function routeTables(): Map<string, RouteTable> {
  const tables = new Map<string, RouteTable>();
  forEachOpenApiProcedure(appRouter._def.procedures, ({ path, type, procedure, meta }) => {
    if (type === 'subscription') return;
    const { method } = meta.openapi;
    const useBody = acceptsRequestBody(method);
    const schema = unwrapZodType(getInputOutputParsers(procedure as AnyTRPCProcedure).inputParser, true);
    const isObject = instanceofZodTypeObject(schema);
    // Strings from a query or path become numbers and booleans where the schema says so (for a
    // body too, as trpc-to-openapi does): it sets `coerce` on those fields of the schema itself.
    if (isObject) coerceSchema(schema);
    const route: Route = {
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
      successStatus: (meta as { successStatus?: number }).successStatus ?? 200,
    };
    const normalised = normalizePath(meta.openapi.path);
    const table: RouteTable = tables.get(method) ?? { exact: new Map(), templated: [] };
    tables.set(method, table);
    if (normalised.includes('{')) table.templated.push({ ...route, pattern: getPathRegExp(normalised) });
    else table.exact.set(normalised.toLowerCase(), route);
  });
  return tables;
}

function match(tables: Map<string, RouteTable>, method: string, path: string) {
  const table = tables.get(method);
  if (!table) return undefined;
  const exact = table.exact.get(path.toLowerCase());
  if (exact) return { route: exact, params: {} };
  for (const route of table.templated) {
    const groups = route.pattern?.exec(path)?.groups;
    if (groups) return { route, params: groups };
  }
  return undefined;
}

/** The query as trpc-to-openapi reads it: first value of a one-value list, empty values left out. */
function queryInput(req: Request, arrayKeys: string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req.query)) {
    if (value) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  for (const key of arrayKeys) {
    if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  }
  return input;
}

function send(res: Response, status: number, headers: Record<string, string>, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
  res.end(JSON.stringify(body));
}

export interface RestHandlerOptions {
  createContext: (req: Request) => Context;
  /** Told of every procedure's error before its body is written (the 500s are logged there). */
  onError: (error: TRPCError, req: Request) => void;
}

export function restHandler(inFlight: InFlight, { createContext, onError }: RestHandlerOptions): RequestHandler {
  const tables = routeTables();

  async function answer(req: Request, res: Response, route: Route, params: Record<string, string>) {
    let ctx: Context | undefined;
    try {
      if (route.useBody && !req.headers['content-type']?.startsWith('application/json')) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json');
      }
      const input = !route.takesInput
        ? undefined
        : { ...(route.useBody ? (req.body as object | undefined) : queryInput(req, route.arrayKeys)), ...params };
      ctx = createContext(req);
      const data = await callTRPCProcedure({
        router: appRouter,
        path: route.procedure,
        type: route.type,
        ctx,
        getRawInput: async () => input,
        signal: undefined,
        batchIndex: 0,
      });
      send(res, ctx.response.status ?? route.successStatus, ctx.response.headers, data);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      onError(error, req);
      const body = toErrorBody(error, req.id);
      const status = statusOf(body);
      const headers = ctx?.response.headers ?? {};
      // The database is down or restarting: the request is fine, ask the client to come back.
      send(res, status, status === 503 ? { ...headers, 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS } : headers, body);
    }
  }

  return (req, res, next) => {
    const found = match(tables, req.method, normalizePath(req.path));
    if (!found) {
      next();
      return;
    }
    inFlight.track(answer(req, res, found.route, found.params)).catch(next);
  };
}
