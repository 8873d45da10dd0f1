/**
 * The error contract at the edge (docs/reference/errors.md): the body every error becomes for REST and
 * tRPC clients, and the tRPC error an `AppError` becomes at the router (`asTRPCError`). Both the REST
 * host and the tRPC error formatter call `toErrorBody`; the domain never imports this module.
 */
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '@sandbank/schemas';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { AppError, isDatabaseUnavailable } from './errors.ts';

type TRPCCode = TRPCError['code'];

const TRPC_CODE_BY_STATUS: Record<number, TRPCCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  // tRPC has no 410: its clients see NOT_FOUND's status with our CURSOR_EXPIRED code; REST answers 410.
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

const CODE_BY_TRPC_CODE: Partial<Record<TRPCCode, ErrorCode>> = {
  PARSE_ERROR: 'VALIDATION_ERROR',
  BAD_REQUEST: 'VALIDATION_ERROR',
  UNAUTHORIZED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

/** The tRPC error an `AppError` is at the router edge: the code of its HTTP status, the `AppError` as its cause. */
export const asTRPCError = (error: AppError): TRPCError =>
  new TRPCError({
    code: TRPC_CODE_BY_STATUS[ERROR_STATUS[error.appCode]] ?? 'INTERNAL_SERVER_ERROR',
    message: error.message,
    cause: error,
  });

/** The `retryAfterSeconds` of an `AppError`, thrown as is or wrapped by tRPC. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof AppError) return error.retryAfterSeconds;
  return error instanceof TRPCError && error.cause instanceof AppError ? error.cause.retryAfterSeconds : undefined;
}

function zodDetails(error: ZodError): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown key is reported at its own path, so clients can point at the offending field.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'Unknown field' }));
    }
    return [{ path: path.join('.'), message: issue.message }];
  });
}

/** Maps any error to the contract body. Internal errors never reveal their message. */
export function toErrorBody(error: unknown, traceId: string): ErrorBody {
  if (error instanceof AppError) {
    return withDetails({ traceId, code: error.appCode, message: error.message }, error.details);
  }
  if (error instanceof TRPCError) {
    if (error.cause instanceof ZodError && error.code === 'BAD_REQUEST') {
      return { traceId, code: 'VALIDATION_ERROR', message: 'The request is not valid', details: zodDetails(error.cause) };
    }
    if (error.cause instanceof AppError) return toErrorBody(error.cause, traceId);
    const code = CODE_BY_TRPC_CODE[error.code];
    if (code) return { traceId, code, message: error.code === 'PARSE_ERROR' ? 'Malformed JSON body' : error.message };
  }
  if (isDatabaseUnavailable(error)) {
    return { traceId, code: 'SERVICE_UNAVAILABLE', message: 'The database is unavailable; retry in a few seconds' };
  }
  return { traceId, code: 'INTERNAL', message: 'Internal server error' };
}

export const statusOf = (body: ErrorBody): number => ERROR_STATUS[body.code];

function withDetails(body: ErrorBody, details: ErrorDetail[] | undefined): ErrorBody {
  return details ? { ...body, details } : body;
}
