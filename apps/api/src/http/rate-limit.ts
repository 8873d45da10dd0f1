/**
 * The per-IP limit on every route. The IP is Express's `req.ip`: the socket address unless
 * TRUST_PROXY says which proxies may speak for the client in `X-Forwarded-For`, so a client
 * cannot pick its own bucket by sending that header.
 */
import { AppError, consumePoint, toErrorBody } from '@sandbank/core';
import type { NextFunction, Request, Response } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { sendError } from './errors.ts';

export function limitPerIp(limiter: RateLimiterAbstract) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const outcome = await consumePoint(limiter, req.ip ?? req.socket.remoteAddress ?? 'unknown');
      if (outcome.allowed) {
        for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
        next();
        return;
      }
      const error = new AppError('RATE_LIMITED', `Too many requests; retry after ${outcome.headers['Retry-After']} s`);
      sendError(res, toErrorBody(error, req.id), outcome.headers);
    } catch (error) {
      next(error);
    }
  };
}
