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

export function toProblem(error: unknown): Problem {
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
