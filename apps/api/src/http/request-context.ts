/**
 * Per-request plumbing: the trace id (`X-Request-Id`, kept when the client sends a well-formed
 * one), a child logger that carries it, and one log line per request when it finishes.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * Paths that carry a secret: a SimpleFIN claim code works once, but it is still a credential.
 * Matched the way a router could reach the claim (any case, repeated slashes, percent-encoded
 * letters), so no spelling of the path logs the code; the whole rest of the path is dropped.
 */
const SECRET_IN_PATH = /^\/+simplefin\/+claim(\/|$)/i;

function loggablePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed percent-encoding: match the raw path.
  }
  return SECRET_IN_PATH.test(decoded) ? '/simplefin/claim/[redacted]' : path;
}

declare global {
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
    }
  }
}

export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    req.log = logger.child({ traceId: req.id });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // A 503 is the database away or the process still starting: expected in operation, not a fault.
      const level = res.statusCode === 503 ? 'warn' : res.statusCode >= 500 ? 'error' : 'info';
      req.log[level](
        {
          method: req.method,
          path: loggablePath(req.originalUrl),
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
