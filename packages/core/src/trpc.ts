/**
 * The tRPC instance: base procedures and the one auth middleware. Every endpoint is a procedure
 * built from these; the API serves the same procedures as REST (apps/api/src/http/rest-handler.ts).
 */
import type { ErrorCode } from '@sandbank/schemas';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context.ts';
import { authenticateAccessToken } from './domain/auth/tokens.ts';
import { authenticateWorldOwner } from './domain/auth/world-owner.ts';
import { authenticateApiKey } from './domain/integrations/authenticate-api-key.ts';
import { asTRPCError, toErrorBody } from './error-body.ts';
import { AppError } from './errors.ts';
import { currentTraceId } from './lib/request-trace.ts';
import { findUnstorable } from './lib/storable-text.ts';
import { withFamilyShare } from './protection/family-shares.ts';

export interface Meta extends OpenApiMeta {
  /** HTTP status of a successful REST call (default 200). */
  successStatus?: number;
  /**
   * Contract codes this procedure answers beyond the generic ones (VALIDATION_ERROR,
   * UNAUTHENTICATED when protected, NOT_FOUND with a path id, RATE_LIMITED, INTERNAL…):
   * each becomes a documented error response in the OpenAPI document.
   */
  errorCodes?: ErrorCode[];
  /** How the procedure authenticates, for the OpenAPI document: set by `apiKeyProcedure` and `worldOwnerProcedure`. */
  auth?: 'apiKey' | 'userOrApiKey';
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // tRPC clients see the same contract code and traceId as REST clients, and never a stack. Errors
    // raised before the context exists take the request's id from the handler (request-trace.ts).
    errorFormatter({ shape, error, ctx }) {
      const body = toErrorBody(error, ctx?.requestId ?? currentTraceId() ?? 'unknown');
      return {
        message: body.message,
        code: shape.code,
        data: {
          code: body.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          traceId: body.traceId,
          details: body.details,
        },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;

/**
 * The router edge of the error contract: an `AppError` thrown by a rule or a middleware below (which
 * tRPC wraps as an internal error) becomes the tRPC error of its status, so tRPC answers that status and
 * every handler reads the `AppError` as its cause.
 */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw asTRPCError(result.error.cause);
  return result;
});

const procedure = t.procedure.use(appErrors);

/** Every string of every input, before its schema: nothing PostgreSQL cannot store gets further (400 with the path). */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const path = findUnstorable(await getRawInput());
  if (path !== null) {
    const message = 'Must not contain U+0000 or a lone UTF-16 surrogate';
    throw new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });
  }
  return next();
});

export const publicProcedure = procedure.use(storableInput);

/** Resolves the user from `Authorization: Bearer <accessToken>`; 401 UNAUTHENTICATED otherwise. */
export const protectedProcedure = procedure
  .use(async ({ ctx, next }) => {
    const token = bearerToken(ctx.authorization);
    if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer access token is required');
    const user = await authenticateAccessToken(ctx.em, ctx.deps, token);
    return withFamilyShare(ctx.deps, ctx.em, user.id, () => next({ ctx: { ...ctx, user } }));
  })
  .use(storableInput);

/**
 * Resolves an API key (a user's `sbk_…` key or a partner key) from `Authorization: Bearer <API_KEY>`;
 * 401 UNAUTHENTICATED otherwise, user access tokens included. `ctx.apiKey` is the key's identity.
 */
export const apiKeyProcedure = procedure
  .meta({ auth: 'apiKey' })
  .use(async ({ ctx, next }) => {
    const apiKey = await authenticateApiKey(ctx.em, ctx.deps.config, bearerToken(ctx.authorization));
    // A partner key reads every owner and belongs to no family: its own rate limit bounds it.
    if (apiKey.kind !== 'user') return next({ ctx: { ...ctx, apiKey } });
    return withFamilyShare(ctx.deps, ctx.em, apiKey.userId, () => next({ ctx: { ...ctx, apiKey } }));
  })
  .use(storableInput);

/**
 * A world's owner by either of its credentials: an access token (a JWT) or one of its API keys
 * (`sbk_…`), so a CI job holding only an API key can make snapshots and worlds. Partner keys read
 * every owner but own no world: 403 FORBIDDEN. `ctx.user.id` is the world's user.
 */
export const worldOwnerProcedure = procedure
  .meta({ auth: 'userOrApiKey' })
  .use(async ({ ctx, next }) => {
    const owner = await authenticateWorldOwner(ctx.em, ctx.deps, bearerToken(ctx.authorization));
    return withFamilyShare(ctx.deps, ctx.em, owner.userId, () => next({ ctx: { ...ctx, user: { id: owner.userId } } }));
  })
  .use(storableInput);

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
