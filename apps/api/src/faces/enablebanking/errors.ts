/**
 * Enable Banking's error shape (docs/faces/enablebanking.md) in one place: every failure answers
 * `{ code, message, error?, detail? }` — `code` the HTTP status, `message` in words, `error` one of the
 * `ErrorCode`s of Enable Banking's published document, `detail` what was wrong with the request.
 * Nothing a client sent that could be a secret (a JWT, a code) is echoed back.
 */
import { AppError } from '@sandbank/core';
import { z } from 'zod';
import type { FaceAnswer } from '../kit.ts';

/** The document's `ErrorCode`s this face answers. */
export type ErrorCode =
  | 'ACCESS_DENIED'
  | 'ACCOUNT_DOES_NOT_EXIST'
  | 'ASPSP_RATE_LIMIT_EXCEEDED'
  | 'AUTHORIZATION_NOT_PROVIDED'
  | 'CLOSED_SESSION'
  | 'DATE_FROM_IN_FUTURE'
  | 'DATE_TO_WITHOUT_DATE_FROM'
  | 'EXPIRED_AUTHORIZATION_CODE'
  | 'EXPIRED_SESSION'
  | 'PAYMENT_NOT_FINALIZED'
  | 'PAYMENT_NOT_FOUND'
  | 'REDIRECT_URI_NOT_ALLOWED'
  | 'SESSION_DOES_NOT_EXIST'
  | 'UNAUTHORIZED_ACCESS'
  | 'WRONG_ASPSP_PROVIDED'
  | 'WRONG_AUTHORIZATION_CODE'
  | 'WRONG_CONTINUATION_KEY'
  | 'WRONG_DATE_INTERVAL'
  | 'WRONG_REQUEST_PARAMETERS'
  | 'WRONG_TRANSACTIONS_PERIOD';

export class EnablebankingError extends Error {
  readonly status: number;
  readonly error: ErrorCode | undefined;
  readonly detail: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    options: { error?: ErrorCode; detail?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.error = options.error;
    this.detail = options.detail;
    this.headers = options.headers ?? {};
  }
}

const e = (status: number, error: ErrorCode, message: string, detail?: unknown) =>
  new EnablebankingError(status, message, { error, ...(detail === undefined ? {} : { detail }) });

export const ebErrors = {
  noAuthorization: () => e(401, 'AUTHORIZATION_NOT_PROVIDED', 'Authorization header is not provided'),
  /** A JWT refused; `why` says which rule (never the token). */
  unauthorized: (why: string) => e(401, 'UNAUTHORIZED_ACCESS', 'Unauthorized access', why),
  invalidBody: () =>
    e(422, 'WRONG_REQUEST_PARAMETERS', 'Wrong request parameters provided', 'The request body is not valid JSON'),
  wrongParameters: (detail: unknown) => e(422, 'WRONG_REQUEST_PARAMETERS', 'Wrong request parameters provided', detail),
  wrongAspsp: () =>
    e(422, 'WRONG_ASPSP_PROVIDED', 'Wrong ASPSP name provided', 'See GET /aspsps for the ASPSPs and their countries'),
  redirectNotAllowed: () =>
    e(422, 'REDIRECT_URI_NOT_ALLOWED', 'Redirect URI not allowed', 'redirect_url must be one of the application’s redirect URLs'),
  wrongCode: () => e(422, 'WRONG_AUTHORIZATION_CODE', 'Wrong authorization code provided'),
  expiredCode: () => e(422, 'EXPIRED_AUTHORIZATION_CODE', 'Authorization code is expired'),
  noSession: () => e(404, 'SESSION_DOES_NOT_EXIST', 'No session found matching provided id'),
  closedSession: () => e(422, 'CLOSED_SESSION', 'Session is closed'),
  expiredSession: () => e(401, 'EXPIRED_SESSION', 'Session is expired'),
  /** The consent does not cover it (`access.balances` or `access.transactions` was false). */
  accessDenied: (what: 'balances' | 'transactions') =>
    e(
      403,
      'ACCESS_DENIED',
      'Access to this resource is denied',
      `The session's consent does not cover ${what} (access.${what} was false)`,
    ),
  noPayment: () => e(404, 'PAYMENT_NOT_FOUND', 'No payment found matching provided id'),
  paymentNotFinalized: () =>
    e(422, 'PAYMENT_NOT_FINALIZED', 'Payment is not finalized', 'A payment still executing (RCVD, ACTC, ACSP) cannot be deleted'),
  noAccount: () => e(404, 'ACCOUNT_DOES_NOT_EXIST', 'No account found matching provided id'),
  dateFromInFuture: () => e(422, 'DATE_FROM_IN_FUTURE', 'date_from can not be in the future'),
  dateToWithoutFrom: () => e(422, 'DATE_TO_WITHOUT_DATE_FROM', 'date_from must be provided if date_to provided'),
  wrongInterval: () => e(422, 'WRONG_DATE_INTERVAL', 'date_from should be less than or equal date_to'),
  wrongPeriod: (detail: string) => e(422, 'WRONG_TRANSACTIONS_PERIOD', 'Wrong transactions period requested', detail),
  wrongContinuationKey: () => e(422, 'WRONG_CONTINUATION_KEY', 'Wrong continuation key provided'),
  /** The ASPSP's daily limit of unattended reads (a bank with a personality, daily-limit.ts). */
  aspspRateLimit: (limit: number, scope: string) =>
    e(
      429,
      'ASPSP_RATE_LIMIT_EXCEEDED',
      'ASPSP Rate limit exceeded',
      `The ASPSP allows ${limit} reads of an account's ${scope} a day without the user present; send Psu-Ip-Address when they are`,
    ),
  notFound: () => new EnablebankingError(404, 'Not Found'),
  conflict: (message: string) => new EnablebankingError(409, message),
  rateLimited: (limit: string, retryAfter: string, headers: Record<string, string>) =>
    new EnablebankingError(429, 'Too many requests', {
      detail: `The rate limit is ${limit}; try again in ${retryAfter} seconds`,
      headers: { ...headers, 'Retry-After': retryAfter },
    }),
  internal: () => new EnablebankingError(500, 'Internal server error'),
};

/** The document's `ErrorResponse`. */
export const ErrorResponseSchema = z
  .object({
    message: z.string(),
    code: z.number().int(),
    error: z.string().optional().meta({ description: 'One of Enable Banking’s ErrorCodes' }),
    detail: z.unknown().optional(),
  })
  .meta({ id: 'ErrorResponse' });

/** The domain's refusals that reach the face, in Enable Banking's words; anything else is its 500. */
export function fromDomain(error: unknown): EnablebankingError {
  if (error instanceof EnablebankingError) return error;
  if (error instanceof AppError) {
    if (error.appCode === 'VALIDATION_ERROR') return ebErrors.wrongParameters(error.details ?? error.message);
    if (error.appCode === 'LIMIT_EXCEEDED') return ebErrors.wrongParameters(error.message);
    if (error.appCode === 'NOT_FOUND') return ebErrors.notFound();
    if (error.appCode === 'CONFLICT') return ebErrors.conflict(error.message);
    // The family's share of the process was not free in time (protection/family-shares.ts).
    if (error.appCode === 'RATE_LIMITED') {
      const retryAfter = String(error.retryAfterSeconds ?? 1);
      return ebErrors.rateLimited('your worlds’ requests in progress', retryAfter, {});
    }
  }
  return ebErrors.internal();
}

export function toAnswer(error: EnablebankingError): FaceAnswer {
  return {
    status: error.status,
    headers: error.headers,
    body: {
      code: error.status,
      message: error.message,
      ...(error.error ? { error: error.error } : {}),
      ...(error.detail === undefined ? {} : { detail: error.detail }),
    },
  };
}
