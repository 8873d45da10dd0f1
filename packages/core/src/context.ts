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
}

export interface ContextInput {
  deps: Deps;
  requestId: string;
  authorization?: string | undefined;
  ip?: string;
  idempotencyKey?: string | undefined;
  log?: Logger;
}

/** Builds a context without HTTP, so tests and scripts can call procedures directly. */
export function createContextInner({
  deps,
  requestId,
  authorization,
  ip = '127.0.0.1',
  idempotencyKey,
  log,
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
  };
}
