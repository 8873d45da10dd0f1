/**
 * Which POST bodies the API reads (REST and /trpc alike): JSON, or no body at all. A request without
 * a body has no media type, so it is an empty input, not a 415: `curl -X POST` sends neither
 * Content-Type nor Content-Length, `fetch` sends `Content-Length: 0`. A body of another type, or a
 * body that names no type, is 415.
 */
import type { IncomingMessage } from 'node:http';

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

export function isJsonOrBodiless(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type !== undefined) return JSON_TYPE.test(type);
  return req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? '0') === 0;
}
