/** What an endpoint of the face is (its body schema, whether it needs the Item, its work), and the Item as Plaid shows it. */
import type { Deps, PlaidItem } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import type { z } from 'zod';
import { loginRequiredBody } from './errors.ts';
import { toPlaidItem } from './mapping.ts';

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
