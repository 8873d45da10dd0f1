/** The API's error contract as the console shows it: message, code, traceId and field details. */
import { TRPCClientError } from '@trpc/client';

export interface Problem {
  message: string;
  code: string;
  traceId?: string;
  details: { path: string; message: string }[];
}

interface ErrorData {
  code?: string;
  traceId?: string;
  details?: { path: string; message: string }[];
}

/** The message of a call that never got an answer (offline, server down, connection cut). */
const NETWORK_MESSAGE = 'Sandbank could not be reached: check your connection, then retry. Nothing was queued to be sent later.';

/**
 * A call that got no answer is `NETWORK`, never `INTERNAL`: tRPC wraps the browser's `fetch`
 * failure (a TypeError, "Failed to fetch") in a TRPCClientError without the contract's data.
 */
function isNetworkError(error: unknown): boolean {
  if (error instanceof TRPCClientError)
    return (
      error.data === undefined &&
      (error.cause instanceof TypeError || error.cause?.name === 'TypeError' || /fetch|network/i.test(error.message))
    );
  return error instanceof TypeError;
}

/** A REST answer's error body, thrown by the console's plain fetches (a statement download). */
export class RestError extends Error {
  readonly body: ErrorData & { message?: string };
  constructor(body: ErrorData & { message?: string }) {
    super(body.message ?? 'The request failed');
    this.body = body;
  }
}

export function toProblem(error: unknown): Problem {
  if (isNetworkError(error)) return { message: NETWORK_MESSAGE, code: 'NETWORK', details: [] };
  if (error instanceof RestError) {
    return {
      message: error.message,
      code: error.body.code ?? 'INTERNAL',
      ...(error.body.traceId ? { traceId: error.body.traceId } : {}),
      details: error.body.details ?? [],
    };
  }
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as ErrorData;
    return {
      message: error.message,
      code: data.code ?? 'INTERNAL',
      ...(data.traceId ? { traceId: data.traceId } : {}),
      details: data.details ?? [],
    };
  }
  return { message: error instanceof Error ? error.message : String(error), code: 'NETWORK', details: [] };
}
