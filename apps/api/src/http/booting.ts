/**
 * The handler that answers while the app is still loading: `/healthz` is 200 at once (it is what
 * wakes a sleeping instance), everything else is 503 in the error contract with `Retry-After`.
 * It sets the same baseline security headers as helmet, and a trace id like every response.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
};

export function bootingHandler(req: IncomingMessage, res: ServerResponse): void {
  const traceId = randomUUID();
  const healthz = req.method === 'GET' && req.url?.split('?')[0] === '/healthz';
  const body = healthz
    ? { data: { status: 'ok' } }
    : { traceId, code: 'SERVICE_UNAVAILABLE', message: 'Starting up; retry in a moment' };
  res.writeHead(healthz ? 200 : 503, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'X-Request-Id': traceId,
    ...(healthz ? {} : { 'Retry-After': '1' }),
  });
  res.end(JSON.stringify(body));
}
