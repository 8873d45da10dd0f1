/**
 * The error contract at the HTTP edge: bodies the parser refused, unknown routes, and anything
 * thrown outside a procedure. Procedures' own errors are mapped by `toErrorBody` in core.
 */
import { AppError, JsonTooDeepError, retryAfterOf, statusOf, toErrorBody, tooDeep } from '@sandbank/core';
import type { ErrorBody } from '@sandbank/schemas';
import type { NextFunction, Request, Response } from 'express';
import type { RestRoutes } from './rest-routes.ts';

/** How long a client should wait while the database is unavailable (503). */
const UNAVAILABLE_RETRY_AFTER_SECONDS = '2';

/**
 * The response headers of a procedure's error: `Retry-After` when a limit refused the call (the
 * error says how long) or while the database is unavailable (503).
 */
export function errorHeaders(error: unknown, status: number, headers: Record<string, string>): Record<string, string> {
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) return { ...headers, 'Retry-After': String(retryAfter) };
  return status === 503 ? { ...headers, 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS } : headers;
}

export function sendError(res: Response, body: ErrorBody, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  if (body.code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', UNAVAILABLE_RETRY_AFTER_SECONDS);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(statusOf(body)).json(body);
}

/** An unknown route is 404; a known path asked with another method is 405 with `Allow`. */
export function notFoundHandler(routes: RestRoutes) {
  return (req: Request, res: Response): void => {
    const allowed = routes.methodsAt(req.path);
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      const error = new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${allowed.join(', ')}`);
      sendError(res, toErrorBody(error, req.id), { Allow: allowed.join(', ') });
      return;
    }
    sendError(res, toErrorBody(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`), req.id));
  };
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Express's last error handler: body-parser failures become contract errors; the rest is 500. */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const parserError = error as BodyParserError;
  let appError: AppError | undefined;
  if (parserError.type === 'entity.too.large') {
    const limit = (parserError as { limit?: number }).limit ?? 64 * 1024;
    appError = new AppError(
      'PAYLOAD_TOO_LARGE',
      `The body is larger than ${limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`}`,
    );
  } else if (error instanceof JsonTooDeepError) appError = tooDeep('(body)', error.maxDepth);
  else if (parserError.type === 'entity.parse.failed') appError = new AppError('VALIDATION_ERROR', 'Malformed JSON body');
  else if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
    appError = new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  }
  if (!appError) req.log.error({ err: error }, 'unhandled error');
  sendError(res, toErrorBody(appError ?? error, req.id));
}
