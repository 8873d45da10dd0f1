/**
 * The statement face's errors are ours (docs/faces/statements.md): it is Sandbank's own door to the
 * files, so a refusal before the file begins is our JSON error contract (`{ traceId, code, message,
 * details }`, with Retry-After where a limit refused it), as the main API answers it. Anything not
 * ours is left to the host's error handler; after the file has begun, an error can only cut it short.
 */
import { AppError, statusOf, toErrorBody } from '@sandbank/core';
import { TRPCError } from '@trpc/server';
import type { Request } from 'express';
import { errorHeaders } from '../../http/errors.ts';
import type { FaceAnswer } from '../kit.ts';

type Ours = AppError | TRPCError;

/** Our errors (an `AppError`, or a tRPC error such as a refused query); anything else is the host's. */
export const fromDomain = (error: unknown): Ours | undefined =>
  error instanceof AppError || error instanceof TRPCError ? error : undefined;

/** Our contract's answer, with Retry-After where a limit refused the call. */
export function toAnswer(error: Ours, req: Request, headers: Record<string, string> = {}): FaceAnswer {
  const body = toErrorBody(error, req.id);
  return { status: statusOf(body), body, headers: errorHeaders(error, statusOf(body), headers) };
}

export const stErrors = {
  unauthenticated: () => new AppError('UNAUTHENTICATED', 'A bearer access token is required'),
  rateLimited: (retryAfter: string | undefined) => new AppError('RATE_LIMITED', `Too many requests; retry after ${retryAfter} s`),
  invalidBody: () => new AppError('VALIDATION_ERROR', 'Malformed JSON body'),
};
