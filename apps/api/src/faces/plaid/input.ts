/**
 * Reading a Plaid request, in Plaid's order of checks and errors: the body is a JSON object
 * (INVALID_BODY), the credentials are present in the PLAID-CLIENT-ID / PLAID-SECRET headers or the
 * body (MISSING_FIELDS), then — once they are known good — the body's shape (UNKNOWN_FIELDS,
 * INVALID_FIELD).
 */
import type { Request } from 'express';
import type { z } from 'zod';
import type { Call } from '../kit.ts';
import { plaidErrors, requestError } from './errors.ts';

/** A call past the credentials and their rate limit: the user whose client_id it is. */
export type PlaidCall = Call & { userId: string };

const header = (req: Request, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};
const asText = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The body as an object, and the credentials it or the headers carry. */
export function readCredentials(req: Request): { clientId: string; secret: string } {
  const raw: unknown = req.body;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw plaidErrors.invalidBody();
  const body = raw as Record<string, unknown>;
  const clientId = header(req, 'plaid-client-id') ?? asText(body.client_id);
  const secret = header(req, 'plaid-secret') ?? asText(body.secret);
  const missing = [...(clientId ? [] : ['client_id']), ...(secret ? [] : ['secret'])];
  if (!clientId || !secret) throw plaidErrors.missingFields(missing);
  return { clientId, secret };
}

/** The body in the endpoint's shape. */
export function parseBody(schema: z.ZodType, value: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw requestError(parsed.error);
  return parsed.data as Record<string, unknown>;
}
