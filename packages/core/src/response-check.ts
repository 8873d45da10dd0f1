/**
 * Responses and their contract. Every procedure declares its output schema, from which the OpenAPI
 * document is written, and tRPC would parse every response with it: a copy of every object, 15–25 %
 * of the API's CPU on a history page of 50 transactions (bench/CHANGELOG.md, "Responses checked where
 * it counts"). Here each procedure's output step is replaced by one that follows the configuration
 * (`CHECK_RESPONSES`, on except in production):
 * - on: the response is parsed and must come out the same JSON: a field the contract does not name,
 *   a wrong type or format, or a value a default or transform would change fails the request (500,
 *   logged with the zod issues) — so the whole test suite proves every mapper returns the contract;
 * - off: the mappers' objects are sent as they are, which those tests have proven equal.
 * Either way the response sent is the procedure's own object, so tests see what production sends.
 */
import { isDeepStrictEqual } from 'node:util';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Context } from './context.ts';

type Result = { ok: true; data: unknown } | { ok: false };
interface OutputStep {
  (opts: { ctx: Context; next: () => Promise<Result> }): Promise<Result>;
  _type?: string;
}
interface ProcedureDef {
  output?: z.ZodType;
  middlewares: OutputStep[];
}

const asJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** Where two JSON values first differ (`data.items[3].raw`), for the log of a response that does. */
function firstDifference(sent: unknown, contract: unknown, at = 'response'): string | null {
  if (isDeepStrictEqual(sent, contract)) return null;
  if (typeof sent !== 'object' || typeof contract !== 'object' || sent === null || contract === null) return at;
  if (Array.isArray(sent) !== Array.isArray(contract)) return at;
  const keys = new Set([...Object.keys(sent), ...Object.keys(contract)]);
  for (const key of keys) {
    const found = firstDifference(
      (sent as Record<string, unknown>)[key],
      (contract as Record<string, unknown>)[key],
      Array.isArray(sent) ? `${at}[${key}]` : `${at}.${key}`,
    );
    if (found) return found;
  }
  return at;
}

function outputStep(path: string, schema: z.ZodType): OutputStep {
  const step: OutputStep = async ({ ctx, next }) => {
    const result = await next();
    if (!result.ok || !ctx.deps.config.http.checkResponses) return result;
    const parsed = await schema.safeParseAsync(result.data);
    if (!parsed.success) {
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: `The response of ${path} breaks its contract`,
        cause: parsed.error,
      });
    }
    const difference = firstDifference(asJson(result.data), asJson(parsed.data));
    if (difference) {
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: `The response of ${path} is not exactly its contract at ${difference}: a field it does not name, or a value its schema changes`,
      });
    }
    return result;
  };
  step._type = 'output';
  return step;
}

/**
 * Replaces the output step of every procedure that declares an output (tRPC's is the middleware it
 * tags `output`; the procedure runs its middlewares from this same array). Throws when a procedure
 * with an output has no such step, i.e. when tRPC's internals no longer look like this.
 */
export function useConfiguredResponseChecks(procedures: Record<string, unknown>): void {
  for (const [path, procedure] of Object.entries(procedures)) {
    const def = (procedure as { _def: ProcedureDef })._def;
    if (!def.output) continue;
    const index = def.middlewares.findIndex((step) => step._type === 'output');
    if (index === -1) throw new Error(`${path}: tRPC's output step was not found (has @trpc/server changed?)`);
    def.middlewares[index] = outputStep(path, def.output);
  }
}
