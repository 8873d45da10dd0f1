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

/** A REST answer's error body, thrown by the console's plain fetches (a statement download). */
export class RestError extends Error {
  readonly body: ErrorData & { message?: string };
  constructor(body: ErrorData & { message?: string }) {
    super(body.message ?? 'The request failed');
    this.body = body;
  }
}

export function toProblem(error: unknown): Problem {
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
