/** The one table of error codes: each code's HTTP status. Documented in docs/reference/errors.md. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  INVALID_PASSWORD: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  ACCOUNT_NAME_TAKEN: 409,
  ACCOUNT_CLOSED: 409,
  BALANCE_NOT_ZERO: 409,
  IDEMPOTENCY_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  VERSION_CONFLICT: 409,
  CLOCK_BACKWARD: 409,
  CLOCK_ADVANCING: 409,
  CURSOR_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_FUNDS: 422,
  BALANCE_LIMIT_EXCEEDED: 422,
  CONFIRMATION_MISMATCH: 422,
  REVERSAL_EXCEEDS_ORIGINAL: 422,
  ADVANCE_TOO_LARGE: 422,
  SCENARIO_TOO_LARGE: 422,
  PERIOD_TOO_LONG: 422,
  LIMIT_EXCEEDED: 422,
  SCHEME_UNAVAILABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The body of every error response, on every path. */
export interface ErrorBody {
  traceId: string;
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}
