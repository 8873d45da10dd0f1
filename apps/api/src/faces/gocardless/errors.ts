/**
 * GoCardless Bank Account Data's error shapes (docs/faces/gocardless.md) in one place: a failure answers
 * `{ summary, detail, status_code }` with GoCardless's HTTP status (the account endpoints add its
 * `type`: AccessExpiredError, RateLimitError, …), except a refused field of a request body, which the
 * live service keys by the field: `{ "<field>": [{ summary, detail }], status_code: 400 }`, a missing
 * one `{ "<field>": ["This field is required."], status_code: 400 }`, an unknown institution
 * `{ institution_id: { summary, detail }, status_code: 400 }` (the examples of its v2 document).
 * Nothing a client sent that could be a secret is echoed back.
 */
import { AppError } from '@sandbank/core';
import type { z } from 'zod';
import type { FaceAnswer } from '../kit.ts';

export class GocardlessError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 500;
  readonly summary: string;
  readonly type: string | undefined;
  readonly headers: Record<string, string>;
  /** A body field's refusal: keyed by the field, as a list (`many`), a lone object (`one`) or GoCardless's `required` text. */
  readonly field: { name: string; form: 'many' | 'one' | 'required' } | undefined;

  constructor(
    status: GocardlessError['status'],
    summary: string,
    detail: string,
    options: { type?: string; headers?: Record<string, string>; field?: GocardlessError['field'] } = {},
  ) {
    super(detail);
    this.status = status;
    this.summary = summary;
    this.type = options.type;
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
}

const REQUIRED = 'This field is required.';

export const gcErrors = {
  invalidJson: () => new GocardlessError(400, 'Invalid request', 'The request body is not valid JSON'),
  /** A query parameter GoCardless refuses (flat, as its examples for query and path errors). */
  invalidField: (field: string, detail: string) => new GocardlessError(400, `Invalid ${field}`, detail),
  /** A field of a request body GoCardless refuses (keyed by the field). */
  invalidBodyField: (field: string, detail: string) =>
    new GocardlessError(400, `Incorrect ${field}`, detail, { field: { name: field, form: 'many' } }),
  missingBodyField: (field: string) => new GocardlessError(400, REQUIRED, REQUIRED, { field: { name: field, form: 'required' } }),
  noCredentials: () =>
    new GocardlessError(401, 'Authentication credentials were not provided.', 'Authentication credentials were not provided.'),
  authenticationFailed: () =>
    new GocardlessError(
      401,
      'Authentication failed',
      'No active account found with the given credentials: secret_id is the id of one of your Sandbank API keys, secret_key that key',
    ),
  invalidToken: () => new GocardlessError(401, 'Invalid token', 'Token is invalid or expired'),
  notFound: () => new GocardlessError(404, 'Not found.', 'Not found.'),
  unknownInstitution: (id: string) =>
    new GocardlessError(400, `Unknown Institution ID ${id}`, 'Get Institution IDs from /institutions/?country={$COUNTRY_CODE}', {
      field: { name: 'institution_id', form: 'one' },
    }),
  accessExpired: (agreementId: string) =>
    new GocardlessError(
      401,
      'Access has expired or it has been revoked',
      `End User Agreement (EUA) ${agreementId} has expired or it has been revoked. To restore access reconnect the account with a new requisition`,
      { type: 'AccessExpiredError' },
    ),
  scopeNotGranted: (scope: string) =>
    new GocardlessError(
      403,
      'Access scope not granted',
      `The End User Agreement of this account does not include the '${scope}' access scope`,
      { type: 'AccessScopeError' },
    ),
  conflict: (detail: string) => new GocardlessError(409, 'Conflict', detail),
  rateLimited: (limit: string, retryAfter: string, headers: Record<string, string>) =>
    new GocardlessError(
      429,
      'Rate limit exceeded',
      `The rate limit for this resource is ${limit}. Please try again in ${retryAfter} seconds`,
      { headers },
    ),
  dailyLimit: (limit: number, retryAfter: number, headers: Record<string, string>) =>
    new GocardlessError(
      429,
      'Rate limit exceeded',
      `Daily request limit set by the Institution has been exceeded: ${limit} per day for this account and scope. Please try again in ${retryAfter} seconds`,
      { type: 'RateLimitError', headers },
    ),
  internal: () => new GocardlessError(500, 'Internal server error', 'An unexpected error occurred'),
};

/** A zod failure of a body (keyed by its field) or a query (flat): its first issue, named by its field. */
export function requestError(error: z.ZodError, where: 'body' | 'query'): GocardlessError {
  const [first] = error.issues;
  const field = first?.path.map(String).join('.') || 'request';
  if (where === 'query' || !first?.path.length)
    return gcErrors.invalidField(field, `${field}: ${first?.message ?? 'invalid value'}`);
  if (first.code === 'invalid_type' && first.input === undefined) return gcErrors.missingBodyField(field);
  return gcErrors.invalidBodyField(field, `${field}: ${first.message}`);
}

/** The requisition's body fields the domain may refuse (the others are checked by the face). */
const BODY_FIELDS = new Set(['agreement', 'reference']);

/** The domain's refusals that reach the face, in GoCardless's words; anything else is its 500. */
export function fromDomain(error: unknown): GocardlessError {
  if (error instanceof GocardlessError) return error;
  if (error instanceof AppError) {
    const path = error.details?.[0]?.path;
    if (error.appCode === 'VALIDATION_ERROR' && path && BODY_FIELDS.has(path))
      return gcErrors.invalidBodyField(path, error.message);
    if (error.appCode === 'VALIDATION_ERROR') return gcErrors.invalidField(path ?? 'request', error.message);
    if (error.appCode === 'LIMIT_EXCEEDED') return gcErrors.invalidField('request', error.message);
    if (error.appCode === 'NOT_FOUND') return gcErrors.notFound();
    if (error.appCode === 'CONFLICT') return gcErrors.conflict(error.message);
    // The family's share of the process was not free in time (protection/family-shares.ts).
    if (error.appCode === 'RATE_LIMITED') {
      const retryAfter = String(error.retryAfterSeconds ?? 1);
      return gcErrors.rateLimited('your worlds’ requests in progress', retryAfter, { 'Retry-After': retryAfter });
    }
  }
  return gcErrors.internal();
}

function errorBody(error: GocardlessError): Record<string, unknown> {
  const entry = { summary: error.summary, detail: error.message };
  const { field } = error;
  if (field) {
    const value = field.form === 'many' ? [entry] : field.form === 'one' ? entry : [REQUIRED];
    return { [field.name]: value, status_code: error.status };
  }
  return { ...entry, ...(error.type ? { type: error.type } : {}), status_code: error.status };
}

export const toAnswer = (error: GocardlessError): FaceAnswer => ({
  status: error.status,
  headers: error.headers,
  body: errorBody(error),
});
