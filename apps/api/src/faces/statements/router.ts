/**
 * The statement face (docs/faces/statements.md): a bank statement file of one account for a period, in the format
 * asked for. Two doors to the same file: `GET /v1/accounts/:id/statement` with the user's access
 * token, and `GET /api/owner/:owner/accounts/:id/statement` with an API key (the pull endpoint's
 * key auth, owner resolution and per-key rate limit). The statement itself is the domain's
 * (`openStatement`: its head, then its entries a page at a time from one snapshot); this folder
 * only writes it in each format, streamed to the response. Errors found before the file begins
 * are in our JSON contract; after, they can only cut the file short.
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AppError,
  authenticateAccessToken,
  authenticateApiKey,
  bearerToken,
  consumePoint,
  type Deps,
  resolveOwner,
  statusOf,
  toErrorBody,
  withFamilyShare,
} from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { TRPCError } from '@trpc/server';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import iconv from 'iconv-lite';
import { ZodError } from 'zod';
import { errorHeaders, sendError } from '../../http/errors.ts';
import type { InFlight } from '../../http/in-flight.ts';
import { openStatementFile, withStatementSlot } from './file.ts';
import { buildStatementsOpenApi } from './openapi.ts';
import { AccountIdSchema, StatementQuerySchema } from './query.ts';

/** The metrics label of a statement route (never a raw path: ids stay out of label values), or undefined. */
export function statementRouteLabel(path: string): string | undefined {
  if (path === '/faces/statements/openapi.json') return path;
  if (/^\/v1\/accounts\/[^/]+\/statement$/.test(path)) return '/v1/accounts/{id}/statement';
  if (/^\/api\/owner\/[^/]+\/accounts\/[^/]+\/statement$/.test(path)) return '/api/owner/{owner}/accounts/{id}/statement';
  return undefined;
}

export function statementsRouter(deps: Deps, inFlight: InFlight): Router {
  const router = express.Router();
  let document: string | undefined;
  router.get('/faces/statements/openapi.json', (_req, res) => {
    document ??= JSON.stringify(buildStatementsOpenApi(deps.config.http.publicUrl));
    res.type('application/json').send(document);
  });
  const wrap = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
    inFlight.track(handler(req, res)).catch((error: unknown) => {
      if (error instanceof AppError || error instanceof TRPCError) {
        const body = toErrorBody(error, req.id);
        sendError(res, body, errorHeaders(error, statusOf(body), {}));
      } else next(error);
    });
  };

  router.get(
    '/v1/accounts/:id/statement',
    wrap(async (req, res) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer access token is required');
      const em = deps.orm.em.fork();
      const user = await authenticateAccessToken(em, deps, token);
      await withFamilyShare(deps, em, user.id, () => sendStatement(req, res, deps, em, user.id));
    }),
  );

  router.get(
    '/api/owner/:owner/accounts/:id/statement',
    wrap(async (req, res) => {
      const em = deps.orm.em.fork();
      const apiKey = await authenticateApiKey(em, deps.config, bearerToken(req.headers.authorization));
      const limiter = deps.rateLimits?.apiKey;
      if (limiter) {
        const outcome = await consumePoint(limiter, apiKey.keyId); // the pull endpoint's bucket
        res.set(outcome.headers);
        if (!outcome.allowed)
          throw new AppError('RATE_LIMITED', `Too many requests; retry after ${outcome.headers['Retry-After']} s`);
      }
      const owner = await resolveOwner(em, apiKey, String(req.params.owner));
      await withFamilyShare(deps, em, owner.id, () => sendStatement(req, res, deps, em, owner.id));
    }),
  );
  return router;
}

async function sendStatement(req: Request, res: Response, deps: Deps, em: EntityManager, userId: string): Promise<void> {
  const accountId = parse(AccountIdSchema, req.params.id, 'id');
  const query = parse(StatementQuerySchema, req.query, '');
  await withStatementSlot(deps, () => streamStatement(req, res, em, { userId, accountId, query }));
}

async function streamStatement(
  req: Request,
  res: Response,
  em: EntityManager,
  { userId, accountId, query }: { userId: string; accountId: string; query: StatementQuery },
): Promise<void> {
  // Errors up to here (404, 422, 400) are in our JSON contract; from here the file streams.
  const file = await openStatementFile(em, { userId, accountId, query });
  let started = false;
  try {
    res.status(200);
    res.set({
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.name}"`,
      'Cache-Control': 'no-store',
    });
    const text = Readable.from(file.text);
    started = true;
    await (file.encoding === 'utf-8' ? pipeline(text, res) : pipeline(text, iconv.encodeStream(file.encoding), res));
  } catch (error) {
    if (!started) throw error;
    // Once the file has begun, an error can only cut it short; a client that went away is no error.
    if (!res.destroyed) res.destroy(error instanceof Error ? error : undefined);
    if (!isPrematureClose(error)) req.log?.error({ err: error }, 'statement stream failed');
  } finally {
    await file.close();
  }
}

type StatementQuery = ReturnType<typeof StatementQuerySchema.parse>;
const isPrematureClose = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';

/** A zod failure as our 400 VALIDATION_ERROR, each issue at its parameter's path. */
function parse<T>(schema: { parse(value: unknown): T }, value: unknown, path: string): T {
  try {
    return schema.parse(value);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    if (path) for (const issue of error.issues) issue.path.unshift(path);
    throw new TRPCError({ code: 'BAD_REQUEST', cause: error });
  }
}
