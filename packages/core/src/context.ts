/** The per-request context: a forked EntityManager, the trace id, and what auth needs. */
import type { EntityManager } from '@sandbank/db';
import type { Logger } from 'pino';
import type { Deps } from './deps.ts';

export interface ResponseMeta {
  /** Overrides the procedure's default success status (e.g. 200 for an idempotent replay). */
  status?: number;
  headers: Record<string, string>;
}

export interface Context {
  deps: Deps;
  em: EntityManager;
  requestId: string;
  log: Logger;
  /** The raw `Authorization` header, if any; the auth middlewares read it. */
  authorization: string | undefined;
  ip: string;
  /** The raw `Idempotency-Key` header, if any (POST /v1/payments reads it). */
  idempotencyKey: string | undefined;
  response: ResponseMeta;
  /** The request's `Sandbank-Read-After` header: the position of a write this read must see (with a replica). */
  readAfter: string | undefined;
  /** Who writes and reads, for read-your-writes: the world's user, or a partner key; set by the auth middlewares. */
  caller?: string;
}

export interface ContextInput {
  deps: Deps;
  requestId: string;
  authorization?: string | undefined;
  ip?: string;
  idempotencyKey?: string | undefined;
  log?: Logger;
  readAfter?: string | undefined;
}

/** Builds a context without HTTP, so tests and scripts can call procedures directly. */
export function createContextInner({
  deps,
  requestId,
  authorization,
  ip = '127.0.0.1',
  idempotencyKey,
  log,
  readAfter,
}: ContextInput): Context {
  return {
    deps,
    em: deps.orm.em.fork(),
    requestId,
    log: log ?? deps.logger.child({ traceId: requestId }),
    authorization,
    ip,
    idempotencyKey,
    response: { headers: {} },
    readAfter,
  };
}
