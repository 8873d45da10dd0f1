/**
 * The face kit (docs/concepts/faces.md): what every face of the host does the same way, in one place,
 * so a face is only its protocol — its routes, its wire schemas, its mapping and its error shape.
 *
 * - One table of routes (`'get /sessions/:session_id'` → summary, query and body schemas, the answer's
 *   schema, the handler) drives both the Express router and the face's OpenAPI document, so the
 *   document cannot miss a route.
 * - Every handler runs with a forked EntityManager, is tracked in flight (the process's shutdown
 *   waits for it), and any failure — the face's own error, our `AppError`, a body the parser refused,
 *   an unknown path, a crash — is answered in the protocol's error shape by the face's `errors`.
 * - A face may run a prelude before its routes (authentication, the per-credential rate limit:
 *   `chargeCredential`), and its refusals of the per-IP limit are in its shape (`faceRefusals`).
 * - `/faces/<name>/openapi.json` serves the document, built once on first use (openapi-json.ts). A
 *   route may add what its table cannot say (`doc`: an operationId, tags, parameters written out,
 *   answers that are not JSON) over what the kit derives.
 * - A handler that answers itself (text, a file, a stream) sends its own response; the kit then sends
 *   nothing more.
 *
 * Every face is built on it: SimpleFIN, Plaid, GoCardless, statements and Enable Banking.
 */
import { consumePoint, type Deps, READ_AFTER_HEADER, readOnReplica } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { InFlight } from '../http/in-flight.ts';
import { BODY_ERROR_TYPES, jsonBody } from '../http/json-body.ts';
import type { FaceRefusals } from '../http/rate-limit.ts';

/** What every handler of a face is handed. */
export interface Call {
  deps: Deps;
  em: EntityManager;
  req: Request;
  res: Response;
}

/** An answer in the protocol's shape: its HTTP status, body and headers (JSON unless `contentType` says otherwise). */
export interface FaceAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** e.g. `text/plain` for SimpleFIN's plain-text errors; the body is then sent as it is. */
  contentType?: string;
}

/** A zod schema as JSON Schema, its named parts gathered in the document's components. */
export type JsonSchemaOf = (schema: z.ZodType, io?: 'input' | 'output') => Record<string, unknown>;

/**
 * What a route's document entry says beyond its table: merged over the derived operation, with
 * `responses` merged status by status and `parameters` replacing the derived ones.
 */
export interface OperationDoc {
  operationId?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Record<string, unknown>[];
  responses?: Record<string, unknown>;
}

export interface FaceRoute<C extends Call> {
  summary: string;
  /** The query string's schema (for the document; the handler parses it). */
  query?: z.ZodObject;
  /** The JSON body's schema (for the document; the handler parses it). */
  body?: z.ZodType;
  /** The success answer's schema (a route answering other than JSON — text, a file — overrides its entry in `doc`). */
  response: z.ZodType;
  /** Default 200. */
  status?: number;
  /** Skips the face's prelude (e.g. a token endpoint). */
  public?: boolean;
  /** This route's own prelude instead of the face's (a second door with other credentials). */
  prelude?(call: Call): Promise<C>;
  /** The document's entry beyond the table (the schemas it names are gathered as the table's are). */
  doc?: (json: JsonSchemaOf) => OperationDoc;
  /** Answers the JSON it resolves to, or nothing if it has answered itself (`call.res`). */
  run(call: C): Promise<unknown>;
}

interface FaceErrors {
  /**
   * Any failure of a handler (the face's error, an `AppError`, anything else) as the protocol's
   * answer; undefined leaves it to the host's error handler (our JSON contract), for a protocol that
   * has no shape of its own for it.
   */
  answer(error: unknown, req: Request): FaceAnswer | undefined;
  /** A body the host's parser refused (not JSON, too large, too deep, not UTF-8). */
  bodyRefused(req: Request): FaceAnswer;
  /** An unknown path under the base path; without it, the host's routes after the face's are tried. */
  notFound?(req: Request): FaceAnswer;
  /** The per-IP limit's refusal; `headers` are the limiter's (`RateLimit-*`, `Retry-After`). */
  rateLimited(req: Request, headers: Record<string, string>): FaceAnswer;
  /** The error body's schema, and what each error status means (every route's responses in the document). */
  schema?: z.ZodType;
  statuses?: Record<string, string>;
  /** The error body's schema of one status on a route with a body, when it differs (GoCardless's field errors). */
  bodySchemas?: Record<string, z.ZodType>;
}

export interface FaceDefinition<C extends Call> {
  /** Its document is served at `/faces/<name>/openapi.json`. */
  name: string;
  /** Where the face is mounted: `/enablebanking` ('' for the site's root). */
  basePath: string;
  /** The document's title, version and description. */
  info: { title: string; version: string; description: string; license?: { name: string; identifier: string } };
  /** The document's security scheme (every route but the public ones). */
  securityScheme: Record<string, unknown>;
  /**
   * The document's parts beyond the routes: the scheme's name (default `face`), other schemes routes
   * name in their `doc.security`, the server's extensions, tags.
   */
  document?: {
    schemeName?: string;
    schemes?: Record<string, Record<string, unknown>>;
    server?: Record<string, unknown>;
    tags?: { name: string; description: string }[];
  };
  /**
   * Body parsing: the size limit, whether any content type is read as JSON (as most providers' APIs
   * do), and whether a top-level scalar is refused (default true). Without it, no body is read.
   */
  body?: { limit: string; anyContentType: boolean; strict?: boolean };
  /** How paths match (Express's router options); default case-sensitive, a trailing slash optional. */
  paths?: { caseSensitive: boolean; strict: boolean };
  /** Runs before every route that is not public: authenticates and rate limits, and gives the handler its caller. */
  prelude(call: Call): Promise<C>;
  /** Runs each authenticated handler within something of the caller's (e.g. its family's share of the process). */
  within?(call: C, work: () => Promise<unknown>): Promise<unknown>;
  /** Keyed `method path` with Express's `:param`s. */
  routes: Record<string, FaceRoute<C>>;
  /** A route for a request no path of the table matched (not in the document), e.g. Plaid's unserved products. */
  unmatched?(req: Request): FaceRoute<C> | undefined;
  errors: FaceErrors;
}

function send(res: Response, answer: FaceAnswer): void {
  if (res.headersSent) return;
  res.status(answer.status).set(answer.headers ?? {});
  if (answer.contentType) res.type(answer.contentType).send(answer.body);
  else res.json(answer.body);
}

/** Mounts the face's router at its base path. */
export function mountFace<C extends Call>(app: Express, face: FaceDefinition<C>, deps: Deps, inFlight: InFlight): void {
  const router = express.Router(face.paths ?? { caseSensitive: true, strict: false });
  const { body } = face;
  if (body)
    router.use(
      jsonBody({ limit: body.limit, strict: body.strict ?? true, ...(body.anyContentType ? { type: () => true } : {}) }),
    );
  const fail = (req: Request, res: Response, next: NextFunction, error: unknown) => {
    const answer = face.errors.answer(error, req);
    if (!answer) return next(error);
    if (answer.status >= 500) req.log.error({ err: error }, `${face.name} face: unexpected error`);
    send(res, answer);
  };
  const handle =
    (route: FaceRoute<C>): RequestHandler =>
    (req, res, next) => {
      const call: Call = { deps, em: deps.orm.em.fork(), req, res };
      const work = (async () => {
        let body: unknown;
        if (route.public) body = await route.run(call as C);
        else {
          const caller = await (route.prelude ?? face.prelude)(call);
          body = face.within ? await face.within(caller, () => route.run(caller)) : await route.run(caller);
        }
        // A handler that answered itself (a file, a stream) has sent its headers already.
        if (!res.headersSent) res.status(route.status ?? 200).json(body);
      })();
      inFlight.track(work).catch((error: unknown) => fail(req, res, next, error));
    };
  for (const [key, route] of Object.entries(face.routes)) {
    const [method, path] = key.split(' ') as ['get' | 'post' | 'delete', string];
    router[method](path, handle(route));
  }
  const { unmatched } = face;
  if (unmatched) {
    router.use((req, res, next) => {
      const route = unmatched(req);
      return route ? handle(route)(req, res, next) : next();
    });
  }
  const { notFound } = face.errors;
  if (notFound) router.use((req, res) => send(res, notFound(req)));
  router.use((error: { type?: string }, req: Request, res: Response, next: NextFunction) => {
    if (error.type !== undefined && BODY_ERROR_TYPES.has(error.type)) return send(res, face.errors.bodyRefused(req));
    fail(req, res, next, error);
  });
  app.use(face.basePath || '/', router);
}

/** The per-IP limit's refusals of these faces' paths, in each one's shape (for `limitPerIp`). */
export function faceRefusals(faces: Pick<FaceDefinition<Call>, 'basePath' | 'errors'>[]): FaceRefusals {
  return Object.fromEntries(
    faces.map((face) => [
      `${face.basePath}/`,
      (req: Request, res: Response, headers: Record<string, string>) => send(res, face.errors.rateLimited(req, headers)),
    ]),
  );
}

/**
 * One point of the credential's rate limit (LIMIT per API key, the same limiter as our API keys'),
 * keyed by the face and the credential: the limiter's headers and whether the call may go on. Always
 * allowed when rate limits are off.
 */
export async function limitCredential(
  call: Call,
  key: string,
): Promise<{ allowed: boolean; headers: Record<string, string>; limit: string }> {
  const limiter = call.deps.rateLimits?.apiKey;
  if (!limiter) return { allowed: true, headers: {}, limit: '' };
  const outcome = await consumePoint(limiter, key);
  return { ...outcome, limit: `${limiter.points}/${limiter.duration}s` };
}

/** A call over its credential's limit: the limit in words, the seconds to wait, the headers sent. */
export interface OverLimit {
  limit: string;
  retryAfter: string;
  headers: Record<string, string>;
}

/**
 * `limitCredential`, answered: the limiter's headers set on the response (`rename`d for a protocol
 * with names of its own) and `refuse`'s error, in the protocol's shape, thrown when the call is over
 * the limit. Nothing when rate limits are off.
 */
export async function chargeCredential(
  call: Call,
  key: string,
  refuse: (over: OverLimit) => Error,
  rename: (headers: Record<string, string>) => Record<string, string> = (headers) => headers,
): Promise<void> {
  const outcome = await limitCredential(call, key);
  if (!outcome.limit) return;
  const headers = rename(outcome.headers);
  call.res.set(headers);
  if (!outcome.allowed) throw refuse({ limit: outcome.limit, retryAfter: outcome.headers['Retry-After'] ?? '1', headers });
}

/**
 * A route's reads of `caller`'s world, on the read replica when it has the caller's writes and the
 * request's `Sandbank-Read-After` (DATABASE_READ_URL; domain/replication/read-routing.ts), else on
 * the primary. Only for reads: a face's checks and counters stay on `call.em`.
 */
export const readWorld = <T>(call: Call, caller: string, read: (em: EntityManager) => Promise<T>): Promise<T> =>
  readOnReplica(call.deps.readRouting, call.em, { caller, readAfter: call.req.get(READ_AFTER_HEADER) }, read);
