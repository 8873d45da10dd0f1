/**
 * tRPC's own endpoint for the one router, at `/trpc` (the typed client's), and the request context
 * both halves build — this one and the REST adapter (rest-handler.ts) for the REST paths (docs/reference/endpoints.md).
 */

import type { IncomingMessage } from 'node:http';
import {
  AppError,
  appRouter,
  type Context,
  createContextInner,
  type Deps,
  isDatabaseUnavailable,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  procedureMetas,
  statusOf,
  toErrorBody,
  tooDeep,
  withTraceId,
} from '@sandbank/core';
import type { TRPCError } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errorHeaders, sendError } from './errors.ts';
import type { InFlight } from './in-flight.ts';
import { isJsonOrBodiless } from './media-type.ts';

const MAX_BODY_BYTES = 64 * 1024;

/** The context of one request: the Express request that `requestContext` decorated. */
export function createContextFactory(deps: Deps) {
  return (req: IncomingMessage): Context => {
    const request = req as Request;
    return createContextInner({
      deps,
      requestId: request.id,
      authorization: request.headers.authorization,
      ip: request.ip ?? '',
      idempotencyKey: request.header('idempotency-key'),
      log: request.log,
      readAfter: request.get('sandbank-read-after'),
    });
  };
}

interface ResponseMetaArgs {
  ctx?: Context | undefined;
  paths?: readonly string[] | undefined;
  errors: readonly TRPCError[];
}

function responseMetaFactory() {
  const successStatus = new Map([...procedureMetas()].map(([path, meta]) => [path, meta.successStatus ?? 200]));
  return ({ ctx, paths, errors }: ResponseMetaArgs) => {
    const headers = ctx?.response.headers ?? {};
    if (errors.length > 0) {
      const [first] = errors;
      const status = statusOf(toErrorBody(first, ctx?.requestId ?? ''));
      return { status, headers: errorHeaders(first, status, headers) };
    }
    const path = paths?.length === 1 ? paths[0] : undefined;
    const status = ctx?.response.status ?? (path ? successStatus.get(path) : undefined) ?? 200;
    return { status, headers };
  };
}

/** A procedure's 500 is logged with its cause; a database that is down, as a warning. */
export function logInternal(error: TRPCError, req: Request): void {
  if (error.code !== 'INTERNAL_SERVER_ERROR') return;
  if (isDatabaseUnavailable(error))
    req.log.warn({ err: { message: error.cause?.message ?? error.message } }, 'database unavailable');
  else req.log.error({ err: error.cause ?? error }, 'procedure failed');
}

/** The `input` query parameter as tRPC reads it (URLSearchParams), or '' without one. */
function queryInput(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? '' : (new URLSearchParams(url.slice(query + 1)).get('input') ?? '');
}

export function trpcHandler(deps: Deps, inFlight: InFlight): RequestHandler {
  const context = createContextFactory(deps);
  const options = {
    router: appRouter,
    createContext: ({ req }: { req: IncomingMessage }) => context(req),
    responseMeta: responseMetaFactory(),
    maxBodySize: MAX_BODY_BYTES,
    // One call per HTTP request: a batch would share one context and slip past the per-IP limit
    // (hundreds of password checks in one request). Our client uses httpLink.
    allowBatching: false,
    onError: ({ error, req }: { error: TRPCError; req: IncomingMessage }) => logInternal(error, req as Request),
  };
  return (req: Request, res: Response, next: NextFunction) => {
    // tRPC also reads form data and octet streams; the contract is JSON only (415 otherwise).
    if (req.method === 'POST' && !isJsonOrBodiless(req)) {
      sendError(res, toErrorBody(new AppError('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json'), req.id));
      return;
    }
    // tRPC answers a POST that names no type "Missing content-type header" (415), even with no body to
    // type. Named JSON, a bodiless POST is read by tRPC as what it is: no input.
    if (req.method === 'POST' && req.headers['content-type'] === undefined) req.headers['content-type'] = 'application/json';
    // A query's input is JSON in `?input=`, which tRPC parses itself: its depth is bounded here, as
    // the body's is by the body parser (json-body.ts).
    if (req.method === 'GET' && nestsDeeperThan(queryInput(req.url), MAX_JSON_DEPTH)) {
      sendError(res, toErrorBody(tooDeep('input'), req.id));
      return;
    }
    // What tRPC's Express adapter does (the procedure's path is the last segment), but with the
    // handler's promise, so that shutdown can wait for it; errors tRPC raises before the context
    // exists still carry this request's trace id.
    const path = req.path.slice(req.path.lastIndexOf('/') + 1);
    inFlight.track(withTraceId(req.id, () => nodeHTTPRequestHandler({ ...options, req, res, path }))).catch(next);
  };
}
