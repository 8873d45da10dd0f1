/**
 * The REST half of the one router: every procedure with an `openapi` meta answers its method and
 * path here, as the unified format says (docs/concepts/format.md: `{ data }` or our error body, the procedure's status).
 *
 * The routes and how a request becomes a procedure's input are settled once (rest-routes.ts, by
 * trpc-to-openapi's rules; it also writes the OpenAPI document). Its own node-http handler is not
 * used: per request it built a URL, a caller proxy, an abort signal nothing read and an error body
 * we then replaced (bench/CHANGELOG.md, "The history's layers, and the REST adapter").
 */

import { AppError, appRouter, type Context, jsonOf, statusOf, toErrorBody } from '@sandbank/core';
import { callTRPCProcedure, getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import type { Request, RequestHandler, Response } from 'express';
import { errorHeaders } from './errors.ts';
import type { InFlight } from './in-flight.ts';
import { isJsonOrBodiless } from './media-type.ts';
import type { RestRoute, RestRoutes } from './rest-routes.ts';

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
  res.end(jsonOf(body));
}

export interface RestHandlerOptions {
  createContext: (req: Request) => Context;
  /** Told of every procedure's error before its body is written (the 500s are logged there). */
  onError: (error: TRPCError, req: Request) => void;
}

export function restHandler(
  routes: RestRoutes,
  inFlight: InFlight,
  { createContext, onError }: RestHandlerOptions,
): RequestHandler {
  async function answer(req: Request, res: Response, route: RestRoute, params: Record<string, string>) {
    let ctx: Context | undefined;
    try {
      if (route.useBody && !isJsonOrBodiless(req)) {
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
      send(res, status, errorHeaders(error, status, ctx?.response.headers ?? {}), body);
    }
  }

  return (req, res, next) => {
    const found = routes.match(req.method, req.path);
    if (!found) {
      next();
      return;
    }
    inFlight.track(answer(req, res, found.route, found.params)).catch(next);
  };
}
