/**
 * How an MCP request calls a procedure: through tRPC's caller with the same context a REST call
 * builds (the bearer credential, the trace id, the client's IP), so the procedure's own
 * authorisation, rate limits and world isolation apply unchanged. A refusal becomes our error
 * contract (`{ traceId, code, message, details }`).
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { appRouter, createContextInner, type Deps, isDatabaseUnavailable, toErrorBody, withTraceId } from '@sandbank/core';
import type { ErrorBody } from '@sandbank/schemas';
import { TRPCError } from '@trpc/server';
import type { Logger } from 'pino';

/** Who is calling: what the HTTP request that carried the MCP message said. */
export interface McpCaller {
  deps: Deps;
  requestId: string;
  authorization: string | undefined;
  ip: string;
  log: Logger;
}

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: ErrorBody };

/** A tool as the server lists and runs it (tools.ts generates them from the router). */
export interface McpTool {
  definition: Tool;
  /** Runs the tool for `caller` with the arguments the agent sent. */
  call(caller: McpCaller, args: Record<string, unknown> | undefined): Promise<CallOutcome>;
}

type ProcedureFunction = (input: unknown) => Promise<unknown>;

/** Calls the procedure at `path` (e.g. `accounts.getAccount`) with `input`. */
export async function callProcedure(caller: McpCaller, path: string, input: unknown): Promise<CallOutcome> {
  const ctx = createContextInner({
    deps: caller.deps,
    requestId: caller.requestId,
    authorization: caller.authorization,
    ip: caller.ip,
    log: caller.log,
  });
  const [area, name] = path.split('.') as [string, string];
  const trpc = appRouter.createCaller(ctx) as unknown as Record<string, Record<string, ProcedureFunction>>;
  const procedure = trpc[area]?.[name];
  if (!procedure) throw new Error(`No procedure ${path}`);
  try {
    return { ok: true, value: await withTraceId(caller.requestId, () => procedure(input)) };
  } catch (error) {
    const body = toErrorBody(error, caller.requestId);
    if (body.code === 'INTERNAL' || body.code === 'SERVICE_UNAVAILABLE') logFailure(caller.log, error, path);
    return { ok: false, error: body };
  }
}

function logFailure(log: Logger, error: unknown, path: string): void {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (isDatabaseUnavailable(error))
    log.warn({ err: { message: String((cause as Error).message) }, path }, 'database unavailable');
  else log.error({ err: cause, path }, 'MCP tool failed');
}
