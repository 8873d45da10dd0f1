/**
 * SimpleFIN's error contract, not ours (docs/faces/simplefin.md): the protocol answers a bad
 * credential, a used, unknown or malformed claim code with a bare 403 (Actual Budget reads a body
 * starting `Forbidden` as an invalid token), and says nothing of other errors; we answer a bad
 * query parameter with a plain-text 400 that names it, and the rate limit with a plain-text 429.
 * Never our JSON error body: SimpleFIN clients do not read it.
 */
import type { Request, Response } from 'express';

export function forbidden(res: Response): void {
  res.status(403).type('text/plain').send('Forbidden');
}

export function badRequest(res: Response, message: string): void {
  res.status(400).type('text/plain').send(message);
}

/** Over the credential's or the IP's rate limit; the RateLimit-* and Retry-After headers are already set. */
export function tooManyRequests(res: Response): void {
  res.status(429).type('text/plain').send('Too many requests');
}

/** The per-IP limit on /simplefin/ answered in the face's shape (app.ts hands it to limitPerIp). */
export function simplefinRateLimited(_req: Request, res: Response, headers: Record<string, string>): void {
  res.set(headers);
  tooManyRequests(res);
}
