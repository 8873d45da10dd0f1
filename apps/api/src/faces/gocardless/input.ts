/** Reading a request's body, query and path id with the wire schemas, failing in GoCardless's shape. */
import type { GocardlessCaller } from '@sandbank/core';
import type { z } from 'zod';
import type { Call } from '../kit.ts';
import { gcErrors, requestError } from './errors.ts';
import { IdSchema } from './wire.ts';

/** A call past the access token and the rate limit: its world's caller, and the world's now. */
export type GcCall = Call & { caller: GocardlessCaller & { now: Date } };

/** A request body: a refused field is answered keyed by its name, as GoCardless does. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw requestError(parsed.error, 'body');
  return parsed.data;
}

/** A query string: a refused parameter is one flat error. */
export function parseQuery<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw requestError(parsed.error, 'query');
  return parsed.data;
}

/** The `:id` of the path: not a UUID is not found, as an unknown id is. */
export function paramId(call: Call): string {
  const parsed = IdSchema.safeParse(call.req.params.id);
  if (!parsed.success) throw gcErrors.notFound();
  return parsed.data;
}
