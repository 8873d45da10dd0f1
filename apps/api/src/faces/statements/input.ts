/**
 * What a statement request carries: its credentials at each of the face's two doors — a user's access
 * token, or an API key (the pull endpoint's key auth, owner resolution and per-key rate limit) — and
 * its query (wire.ts), each refused parameter our 400.
 */
import {
  authenticateAccessToken,
  authenticateApiKey,
  bearerToken,
  partnerCaller,
  readEntityManager,
  resolveOwner,
} from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { type Call, chargeCredential } from '../kit.ts';
import { stErrors } from './errors.ts';

/** A call past its door: the user whose statement it is, and where to read it (the replica when it may). */
export type StatementCall = Call & { userId: string; readEm: EntityManager };

/** A zod failure as our 400 VALIDATION_ERROR, each issue at its parameter's path. */
export function parse<T>(schema: { parse(value: unknown): T }, value: unknown, path: string): T {
  try {
    return schema.parse(value);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    if (path) for (const issue of error.issues) issue.path.unshift(path);
    throw new TRPCError({ code: 'BAD_REQUEST', cause: error });
  }
}

const readAfter = (call: Call) => call.req.get('sandbank-read-after');

/** `GET /v1/accounts/:id/statement`: the user of the access token. */
export async function byAccessToken(call: Call): Promise<StatementCall> {
  const token = bearerToken(call.req.headers.authorization);
  if (!token) throw stErrors.unauthenticated();
  const user = await authenticateAccessToken(call.em, call.deps, token);
  const readEm = await readEntityManager(call.deps.readRouting, call.em, user.id, readAfter(call));
  return { ...call, userId: user.id, readEm };
}

/** `GET /api/owner/:owner/accounts/:id/statement`: the owner an API key may read, within the key's rate limit. */
export async function byApiKey(call: Call): Promise<StatementCall> {
  const apiKey = await authenticateApiKey(call.em, call.deps.config, bearerToken(call.req.headers.authorization));
  // The pull endpoint's bucket.
  await chargeCredential(call, apiKey.keyId, ({ retryAfter }) => stErrors.rateLimited(retryAfter));
  const owner = await resolveOwner(call.em, apiKey, String(call.req.params.owner));
  const caller = apiKey.kind === 'user' ? apiKey.userId : partnerCaller(apiKey.keyId);
  const readEm = await readEntityManager(call.deps.readRouting, call.em, caller, readAfter(call));
  return { ...call, userId: owner.id, readEm };
}
