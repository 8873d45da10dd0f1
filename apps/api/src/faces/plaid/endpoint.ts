/**
 * What an endpoint of the face is (its body schema, whether it needs the Item, its work), the Item as
 * Plaid shows it, and an endpoint as a route of the face kit (`toRoute`): past the prelude
 * (face.ts), the body's shape, then within the world's family share the Item of `access_token`
 * (INVALID_ACCESS_TOKEN, ITEM_NOT_FOUND, ITEM_LOGIN_REQUIRED) and the work; Plaid's `request_id` on
 * every answer.
 */
import { type Deps, findItem, type PlaidItem, READ_AFTER_HEADER, readOnReplica, withFamilyShare } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import type { z } from 'zod';
import type { FaceRoute } from '../kit.ts';
import { loginRequiredBody, plaidErrors } from './errors.ts';
import { type PlaidCall, parseBody } from './input.ts';
import { toPlaidItem } from './mapping.ts';
import { RESPONSES } from './wire.ts';

export interface CallContext {
  deps: Deps;
  em: EntityManager;
  userId: string;
}

/**
 * `item`: the Item of `access_token` is needed; 'usable' refuses one whose login is required.
 * `reads`: the work only reads the world, so it may read a replica (DATABASE_READ_URL); the Item is
 * found on the primary before.
 */
export interface Endpoint {
  schema: z.ZodType;
  item: 'any' | 'usable' | undefined;
  reads?: true;
  run: (call: CallContext & { body: unknown; item: PlaidItem }) => Promise<Record<string, unknown>>;
}

/** Declares an endpoint with its body type inferred from its schema. */
export const endpoint = <S extends z.ZodType>(
  schema: S,
  item: Endpoint['item'],
  run: (call: CallContext & { body: z.infer<S>; item: PlaidItem }) => Promise<Record<string, unknown>>,
): Endpoint => ({ schema, item, run: run as Endpoint['run'] });

/** An endpoint that only reads the world (`Endpoint.reads`). */
export const readEndpoint = <S extends z.ZodType>(
  schema: S,
  item: 'any' | 'usable',
  run: (call: CallContext & { body: z.infer<S>; item: PlaidItem }) => Promise<Record<string, unknown>>,
): Endpoint => ({ ...endpoint(schema, item, run), reads: true });

export const plaidItem = (item: PlaidItem) => toPlaidItem(item, loginRequiredBody());

/** The endpoint's work for the caller, past authentication, the rate limit and the body's shape. */
export async function runEndpoint(call: PlaidCall, endpoint: Endpoint): Promise<Record<string, unknown>> {
  const { deps, em, userId } = call;
  const input = parseBody(endpoint.schema, call.req.body);
  const readAfter = call.req.get(READ_AFTER_HEADER);
  const result = await withFamilyShare(deps, em, userId, async () => {
    let item: PlaidItem | null = null;
    if (endpoint.item) {
      item = await findItem(em, { userId, accessToken: String(input.access_token) });
      if (!item) throw plaidErrors.invalidAccessToken();
      if (item.removed) throw plaidErrors.itemNotFound();
      if (endpoint.item === 'usable' && item.state === 'login_required') throw plaidErrors.itemLoginRequired();
    }
    const work = (readEm: EntityManager) => endpoint.run({ deps, em: readEm, userId, body: input, item: item as PlaidItem });
    return endpoint.reads ? readOnReplica(deps.readRouting, em, { caller: userId, readAfter }, work) : work(em);
  });
  return { ...result, request_id: call.req.id };
}

/** `path`'s endpoint as a route of the kit (POST, its body and answer documented; `summary` in words). */
export function toRoute(path: string, endpoint: Endpoint, summary: string | undefined): FaceRoute<PlaidCall> {
  const response = RESPONSES[path];
  if (!response || !summary) throw new Error(`no response schema or summary for ${path}`);
  return {
    summary,
    body: endpoint.schema,
    response,
    doc: () => ({ operationId: path.slice(1).replaceAll('/', '_') }),
    run: (call) => runEndpoint(call, endpoint),
  };
}
