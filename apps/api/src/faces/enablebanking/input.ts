/** Reading a request's body, query and path ids with the wire schemas, failing in Enable Banking's shape. */
import type { Application } from '@sandbank/core';
import type { z } from 'zod';
import type { Call } from '../kit.ts';
import { ebErrors } from './errors.ts';

/** A call past the JWT and the rate limit: the application that signed it. */
export type AppCall = Call & { application: Application };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where each refused field is and why, as FastAPI-style `detail` entries (Enable Banking's API is one). */
const detailOf = (error: z.ZodError, where: 'body' | 'query') =>
  error.issues.slice(0, 10).map((issue) => ({ loc: [where, ...issue.path.map(String)], msg: issue.message, type: issue.code }));

export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw ebErrors.wrongParameters(detailOf(parsed.error, 'body'));
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw ebErrors.wrongParameters(detailOf(parsed.error, 'query'));
  return parsed.data;
}

/** A path id: not a UUID is as unknown as an unknown id (`notFound`). */
export function pathId(call: Call, name: string, notFound: () => Error): string {
  const value = call.req.params[name];
  if (typeof value !== 'string' || !UUID.test(value)) throw notFound();
  return value.toLowerCase();
}
