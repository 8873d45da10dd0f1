/**
 * Plaid's error shape (docs/faces/plaid.md) in one place: every failure of the face answers
 * `{ error_type, error_code, error_message, display_message, request_id }` with Plaid's HTTP status
 * and codes, as Plaid's SDK hands them to the app (an AxiosError whose `response.data` is this body).
 * Request-shape errors follow Plaid's own: MISSING_FIELDS, UNKNOWN_FIELDS, INVALID_FIELD, INVALID_BODY.
 * Nothing a client sent that could be a secret is echoed back.
 */
import { AppError, ITEM_LOGIN_REQUIRED } from '@sandbank/core';
import type { z } from 'zod';
import type { FaceAnswer } from '../kit.ts';

type PlaidErrorType = 'INVALID_REQUEST' | 'INVALID_INPUT' | 'ITEM_ERROR' | 'RATE_LIMIT_EXCEEDED' | 'API_ERROR';

export class PlaidError extends Error {
  readonly status: 400 | 401 | 404 | 429 | 500;
  readonly errorType: PlaidErrorType;
  readonly errorCode: string;
  readonly displayMessage: string | null;

  constructor(
    status: PlaidError['status'],
    errorType: PlaidErrorType,
    errorCode: string,
    message: string,
    displayMessage: string | null = null,
  ) {
    super(message);
    this.status = status;
    this.errorType = errorType;
    this.errorCode = errorCode;
    this.displayMessage = displayMessage;
  }
}

const invalidRequest = (code: string, message: string) => new PlaidError(400, 'INVALID_REQUEST', code, message);
const invalidInput = (code: string, message: string) => new PlaidError(400, 'INVALID_INPUT', code, message);

export const plaidErrors = {
  invalidBody: () => invalidRequest('INVALID_BODY', 'body could not be parsed as JSON'),
  invalidField: (message: string) => invalidRequest('INVALID_FIELD', message),
  missingFields: (fields: string[]) =>
    invalidRequest('MISSING_FIELDS', `the following required fields are missing: ${fields.join(', ')}`),
  notFound: () => new PlaidError(404, 'INVALID_REQUEST', 'NOT_FOUND', 'not found'),
  invalidApiKeys: () =>
    invalidInput(
      'INVALID_API_KEYS',
      'invalid client_id or secret provided: client_id is your Sandbank user id, secret one of its API keys',
    ),
  invalidAccessToken: () =>
    invalidInput('INVALID_ACCESS_TOKEN', 'provided access token is in an invalid format or is not one of yours'),
  invalidPublicToken: () =>
    invalidInput('INVALID_PUBLIC_TOKEN', 'provided public token is unknown, expired or already exchanged'),
  invalidInstitution: () => invalidInput('INVALID_INSTITUTION', 'invalid institution_id provided: Sandbank is ins_sandbank'),
  invalidProduct: (products: readonly string[]) =>
    invalidInput(
      'INVALID_PRODUCT',
      `client is not authorized to access the following products: ${JSON.stringify(products)}; Sandbank serves transactions, balance, auth and identity`,
    ),
  productsNotSupported: (product: string) =>
    new PlaidError(
      400,
      'ITEM_ERROR',
      'PRODUCTS_NOT_SUPPORTED',
      `the following products are not supported by this institution: ${product} (Sandbank serves transactions, balance, auth and identity)`,
    ),
  invalidAccountId: () => invalidInput('INVALID_ACCOUNT_ID', 'one or more of the account IDs is invalid'),
  itemNotFound: () =>
    new PlaidError(
      400,
      'ITEM_ERROR',
      'ITEM_NOT_FOUND',
      'the Item you requested cannot be found: it was removed via /item/remove',
    ),
  itemLoginRequired: () =>
    new PlaidError(
      400,
      ITEM_LOGIN_REQUIRED.error_type,
      ITEM_LOGIN_REQUIRED.error_code,
      ITEM_LOGIN_REQUIRED.error_message,
      ITEM_LOGIN_REQUIRED.display_message,
    ),
  rateLimited: (retryAfter: string | undefined) =>
    new PlaidError(
      429,
      'RATE_LIMIT_EXCEEDED',
      'RATE_LIMIT',
      `rate limit exceeded for this client; retry after ${retryAfter ?? 'a while'} s`,
    ),
  limitExceeded: (message: string) => invalidRequest('INVALID_FIELD', message),
  internal: () =>
    new PlaidError(500, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'an unexpected error occurred', 'an unexpected error occurred'),
};

/** A zod failure of a request body as Plaid says it: missing fields first, then unknown ones, then the first invalid one. */
export function requestError(error: z.ZodError): PlaidError {
  const missing: string[] = [];
  const unknown: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'invalid_type' && issue.input === undefined) missing.push(path);
    if (issue.code === 'unrecognized_keys') unknown.push(...issue.keys.map((key) => (path ? `${path}.${key}` : key)));
  }
  if (missing.length > 0) return plaidErrors.missingFields(missing);
  if (unknown.length > 0) {
    return invalidRequest('UNKNOWN_FIELDS', `the following fields are not recognized by this endpoint: ${unknown.join(', ')}`);
  }
  const [first] = error.issues;
  const path = first?.path.map(String).join('.') || 'body';
  return plaidErrors.invalidField(`${path}: ${first?.message ?? 'invalid value'}`);
}

/** The domain's refusals that reach the face, in Plaid's words; anything else is Plaid's 500. */
export function fromDomain(error: unknown): PlaidError {
  if (error instanceof PlaidError) return error;
  if (error instanceof AppError) {
    if (error.appCode === 'CURSOR_EXPIRED') {
      return plaidErrors.invalidField('cursor was issued before a sandbox reset of this world: sync again without a cursor');
    }
    if (error.appCode === 'VALIDATION_ERROR' && error.details?.[0]?.path === 'cursor') {
      return plaidErrors.invalidField('cursor is not valid: pass back a next_cursor exactly as it was returned');
    }
    if (error.appCode === 'LIMIT_EXCEEDED') return plaidErrors.limitExceeded(error.message);
    // The family's share of the process was not free in time (protection/family-shares.ts).
    if (error.appCode === 'RATE_LIMITED') return plaidErrors.rateLimited(String(error.retryAfterSeconds ?? 1));
  }
  return plaidErrors.internal();
}

/** Plaid's error object, as an answer's body or inside an Item or a webhook (`error`). */
function plaidErrorBody(error: PlaidError) {
  return {
    error_type: error.errorType,
    error_code: error.errorCode,
    error_message: error.message,
    display_message: error.displayMessage,
  };
}

/** ITEM_LOGIN_REQUIRED's body: an Item's `error` after `/sandbox/item/reset_login`, and its webhook's. */
export const loginRequiredBody = () => ({ ...ITEM_LOGIN_REQUIRED });

/** The error as the face's answer, with the request's id (Plaid's `request_id`). */
export const toAnswer = (error: PlaidError, requestId: string, headers: Record<string, string> = {}): FaceAnswer => ({
  status: error.status,
  headers,
  body: { ...plaidErrorBody(error), request_id: requestId },
});
