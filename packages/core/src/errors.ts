/**
 * The error contract (docs/reference/errors.md) in one place: domain code throws `AppError`; everything else is
 * mapped from tRPC's codes. Both the REST host and the tRPC error formatter call `toErrorBody`.
 */
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '@sandbank/schemas';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';

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

/** A failure the client caused or should know about, with its contract code. */
export class AppError extends TRPCError {
  readonly appCode: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** When the client may try again (a refusal by a limit): the HTTP layer writes it as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    appCode: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super({ code: TRPC_CODE_BY_STATUS[ERROR_STATUS[appCode]] ?? 'INTERNAL_SERVER_ERROR', message, cause: options.cause });
    this.appCode = appCode;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The `retryAfterSeconds` of an `AppError`, thrown as is or wrapped by tRPC. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof AppError) return error.retryAfterSeconds;
  return error instanceof TRPCError && error.cause instanceof AppError ? error.cause.retryAfterSeconds : undefined;
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

/**
 * The user a valid access token names is gone: a child world removed (DELETE /v1/worlds/:id or its
 * TTL) while its JWT has not yet expired. Users are removed only so (domain/worlds/remove-worlds.ts).
 */
export const worldGone = () => new AppError('UNAUTHENTICATED', 'The world of this credential no longer exists');

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

/**
 * Connection-level failures: the database is down, restarting, unreachable, or (25006, a write in
 * a read-only transaction) a primary demoted during a failover, reached before the proxy moved
 * on. Not a bad query: the client's retry succeeds once a primary takes writes again.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '25006',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** Whether `error` (or anything in its cause chain) says the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 8 || error === null || typeof error !== 'object') return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
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
