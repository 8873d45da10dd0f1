/**
 * SimpleFIN's error contract, not ours (docs/faces/simplefin.md): the protocol answers a bad
 * credential, a used, unknown or malformed claim code with a bare 403 (Actual Budget reads a body
 * starting `Forbidden` as an invalid token), and says nothing of other errors; we answer a bad
 * query parameter with a plain-text 400 that names it, and the rate limit with a plain-text 429.
 * Never our JSON error body for these: SimpleFIN clients do not read it. Anything else (a crash)
 * is left to the host's error handler.
 */
import { AppError } from '@sandbank/core';
import type { FaceAnswer } from '../kit.ts';

export class SimplefinError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const sfErrors = {
  forbidden: () => new SimplefinError(403, 'Forbidden'),
  badRequest: (message: string) => new SimplefinError(400, message),
  /** Over the credential's or the IP's rate limit; `headers` are the limiter's (RateLimit-*, Retry-After). */
  tooManyRequests: (headers: Record<string, string> = {}) => new SimplefinError(429, 'Too many requests', headers),
};

/** The face's own errors, and the family's share of the process not free in time (the protocol's 429). */
export function fromDomain(error: unknown): SimplefinError | undefined {
  if (error instanceof SimplefinError) return error;
  if (error instanceof AppError && error.appCode === 'RATE_LIMITED') return sfErrors.tooManyRequests({ 'Retry-After': '1' });
  return undefined;
}

export const toAnswer = (error: SimplefinError): FaceAnswer => ({
  status: error.status,
  headers: error.headers,
  body: error.message,
  contentType: 'text/plain',
});
