/**
 * The trace id of the HTTP request being answered, for errors raised before a procedure's context
 * exists. tRPC formats some errors without a context: a batch or a `connectionParams` it refuses, a
 * URL it cannot read, a body it cannot re-serialise. Its error formatter sees only `ctx`, so those
 * answers carried `traceId: "unknown"`. The `/trpc` handler runs each request inside `withTraceId`,
 * and the formatter falls back to `currentTraceId()`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const traces = new AsyncLocalStorage<string>();

export const withTraceId = <T>(traceId: string, run: () => T): T => traces.run(traceId, run);

export const currentTraceId = (): string | undefined => traces.getStore();
