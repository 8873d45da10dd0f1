/**
 * The domain's errors (docs/reference/errors.md): domain code throws `AppError`, a plain error with
 * its contract code, and knows nothing of the transports. The edges turn it into theirs: tRPC's and
 * REST's in error-body.ts and trpc.ts, each face's in its own errors.ts.
 */
import type { ErrorCode, ErrorDetail } from '@sandbank/schemas';

/** A failure the client caused or should know about, with its contract code. */
export class AppError extends Error {
  readonly appCode: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** When the client may try again (a refusal by a limit): the HTTP layer writes it as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    appCode: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.appCode = appCode;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

/**
 * The user a valid access token names is gone: a child world removed (DELETE /v1/worlds/:id or its
 * TTL) while its JWT has not yet expired. Users are removed only so (domain/worlds/remove-worlds.ts).
 */
export const worldGone = () => new AppError('UNAUTHENTICATED', 'The world of this credential no longer exists');

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
