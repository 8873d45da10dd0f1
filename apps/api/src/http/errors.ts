/**
 * The error contract at the HTTP edge: bodies the parser refused, unknown routes, and anything
 * thrown outside a procedure. Procedures' own errors are mapped by `toErrorBody` in core.
 */
import { AppError, statusOf, toErrorBody } from '@sandbank/core';
import type { ErrorBody } from '@sandbank/schemas';
import type { NextFunction, Request, Response } from 'express';

export function sendError(res: Response, body: ErrorBody, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(statusOf(body)).json(body);
}

export function notFoundHandler(req: Request, res: Response): void {
  sendError(res, toErrorBody(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`), req.id));
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Express's last error handler: body-parser failures become contract errors; the rest is 500. */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const parserError = error as BodyParserError;
  let appError: AppError | undefined;
  if (parserError.type === 'entity.too.large') appError = new AppError('PAYLOAD_TOO_LARGE', 'The body is larger than 64 KiB');
  else if (parserError.type === 'entity.parse.failed') appError = new AppError('VALIDATION_ERROR', 'Malformed JSON body');
  else if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
    appError = new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  }
  if (!appError) req.log.error({ err: error }, 'unhandled error');
  sendError(res, toErrorBody(appError ?? error, req.id));
}
