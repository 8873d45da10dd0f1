/**
 * The per-IP limit on every route. The IP is Express's `req.ip`: the socket address unless
 * TRUST_PROXY says which proxies may speak for the client in `X-Forwarded-For`, so a client
 * cannot pick its own bucket by sending that header. A face's paths are refused in its protocol's
 * shape (Plaid's RATE_LIMIT_EXCEEDED), everything else in our contract.
 */
import { AppError, consumePoint, toErrorBody } from '@sandbank/core';
import type { NextFunction, Request, Response } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { sendError } from './errors.ts';

/** Writes a refusal in a face's own error shape (its path prefix → the writer). */
export type FaceRefusals = Record<string, (req: Request, res: Response, headers: Record<string, string>) => void>;

export function limitPerIp(limiter: RateLimiterAbstract, faces: FaceRefusals = {}) {
  const prefixes = Object.entries(faces);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const outcome = await consumePoint(limiter, req.ip ?? req.socket.remoteAddress ?? 'unknown');
      if (outcome.allowed) {
        for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
        next();
        return;
      }
      const face = prefixes.find(([prefix]) => req.path.startsWith(prefix));
      if (face) return face[1](req, res, outcome.headers);
      const error = new AppError('RATE_LIMITED', `Too many requests; retry after ${outcome.headers['Retry-After']} s`);
      sendError(res, toErrorBody(error, req.id), outcome.headers);
    } catch (error) {
      next(error);
    }
  };
}
