/**
 * `/console/session`: the console's session across reloads (docs/reference/console.md, "Session").
 * The refresh token lives in an `HttpOnly` cookie that only this path receives
 * (`Path=/console/session`, `SameSite=Strict`, `Secure` under TLS); the access token stays in the
 * tab's memory. This is an HTTP route, not a procedure, because cookies are a browser transport:
 * the router's `auth.*` procedures answer tokens in the body for every client, and a cookie set
 * there would also reach REST and SDK callers that never asked for one. The route only carries
 * tokens between the cookie and the domain's session functions (`refreshSession`, revocation).
 *
 * - `POST /console/session` `{ refreshToken }`: adopts a session just answered by `auth.login` or
 *   `auth.register`: the token is rotated at once (the one the page saw is spent) and its
 *   successor goes into the cookie. Answers the access token.
 * - `POST /console/session/refresh`: rotates the cookie's token; answers a new access token. With
 *   no cookie at all it answers `200 { data: null }`: "no session" is the page's ordinary signed-out
 *   state, asked on every load, not an error (a browser logs every 4xx in red). A cookie whose token
 *   is refused (revoked, reused) is still `401 UNAUTHENTICATED`, and the cookie is cleared.
 * - `POST /console/session/logout`: revokes the cookie's session family and clears the cookie.
 *
 * CSRF: besides `SameSite=Strict`, every call must carry `X-Sandbank-Console: 1` (a custom
 * header a cross-site form cannot send, and that CORS does not allow for other origins without
 * a preflight we do not answer), and an `Origin`, when sent, must be this service's own.
 */
import { AppError, type Deps, refreshSession, revokeFamilyOfRefreshToken, toErrorBody } from '@sandbank/core';
import { TRPCError } from '@trpc/server';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { sendError } from './errors.ts';
import type { InFlight } from './in-flight.ts';

export const CONSOLE_SESSION_PATH = '/console/session';
export const CONSOLE_SESSION_ROUTES = new Set([
  CONSOLE_SESSION_PATH,
  `${CONSOLE_SESSION_PATH}/refresh`,
  `${CONSOLE_SESSION_PATH}/logout`,
]);
const REFRESH_COOKIE = 'sandbank_console_refresh';
const CSRF_HEADER = 'x-sandbank-console';

const AdoptSchema = z.strictObject({ refreshToken: z.string().min(1).max(512) });

/** The refresh cookie of a request, if any (a tiny parser: one name, no cookie-parser dependency). */
function cookieOf(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value.length > 0 && value.length <= 512 ? value : undefined;
    }
  }
  return undefined;
}

export function consoleSessionRouter(deps: Deps, inFlight: InFlight): Router {
  const { config } = deps;
  const ownOrigins = new Set([new URL(config.http.publicUrl).origin]);
  const cookieOptions = (req: Request) => ({
    path: CONSOLE_SESSION_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: req.secure || config.http.publicUrl.startsWith('https:'),
  });

  const guard = (req: Request): void => {
    if (req.get(CSRF_HEADER) !== '1') {
      throw new AppError('FORBIDDEN', `The console's session calls need the header ${CSRF_HEADER}: 1`);
    }
    const origin = req.get('origin');
    if (origin && origin !== `${req.protocol}://${req.get('host')}` && !ownOrigins.has(origin)) {
      throw new AppError('FORBIDDEN', `The console's session is not available to ${origin}`);
    }
  };

  const answer = (req: Request, res: Response, session: { accessToken: string; refreshToken: string; expiresIn: number }) => {
    res.cookie(REFRESH_COOKIE, session.refreshToken, {
      ...cookieOptions(req),
      maxAge: config.auth.refreshTokenTtlSeconds * 1000,
    });
    res.json({ data: { accessToken: session.accessToken, tokenType: 'Bearer', expiresIn: session.expiresIn } });
  };

  const wrap = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
    inFlight
      .track(
        (async () => {
          guard(req);
          await handler(req, res);
        })(),
      )
      .catch((error: unknown) => {
        if (error instanceof AppError || error instanceof TRPCError) sendError(res, toErrorBody(error, req.id));
        // A body that is not `{ refreshToken }` is the contract's VALIDATION_ERROR, with its field details.
        else if (error instanceof z.ZodError)
          sendError(res, toErrorBody(new TRPCError({ code: 'BAD_REQUEST', cause: error }), req.id));
        else next(error);
      });
  };

  const router = express.Router();
  router.post(
    '/',
    wrap(async (req, res) => {
      const { refreshToken } = AdoptSchema.parse(req.body ?? {});
      answer(req, res, await refreshSession(deps.orm.em.fork(), deps, refreshToken));
    }),
  );
  router.post(
    '/refresh',
    wrap(async (req, res) => {
      const token = cookieOf(req);
      if (!token) {
        res.json({ data: null });
        return;
      }
      try {
        answer(req, res, await refreshSession(deps.orm.em.fork(), deps, token));
      } catch (error) {
        // A refused token is dead: the cookie goes too, so the next reload does not try it again.
        if (error instanceof AppError) res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
        throw error;
      }
    }),
  );
  router.post(
    '/logout',
    wrap(async (req, res) => {
      const token = cookieOf(req);
      if (token) await revokeFamilyOfRefreshToken(deps.orm.em.fork(), token);
      res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
      res.json({ data: { revoked: true } });
    }),
  );
  return router;
}
