/**
 * API-key authentication of the pull endpoint. A presented key is hashed once (SHA-256), compared
 * with the partner keys in constant time, else looked up by the unique hash index. Missing,
 * unknown, revoked and expired keys — and user access tokens — are all 401 UNAUTHENTICATED.
 */
import type { Config } from '@sandbank/config';
import { ApiKeyEntity, type EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { sha256 } from '../auth/tokens.ts';
import { API_KEY_PREFIX } from './api-keys.ts';
import { matchPartnerKey } from './partner-keys.ts';
import { type KeyRow, selectKeyByHash } from './queries.ts';

/**
 * Who is calling with an API key; `keyId` is stable and not secret, so rate limits can key on it.
 * A user key also carries what its lookup read of its user — the e-mail and the world's now — so
 * the owner it names resolves without another statement (`resolveOwner`).
 */
export type ApiKeyIdentity =
  | { kind: 'user'; keyId: string; userId: string; email: string; userNow: Date }
  | { kind: 'partner'; keyId: string };

/** `lastUsedAt` is written at most once per this interval per key, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * `options.keyId` / `options.userId`: the key must also be this one (the GoCardless face's
 * `secret_id`) / a key of this user (the Plaid face's `client_id`): checked before the key is marked
 * used, so credentials that do not match change nothing.
 */
export async function authenticateApiKey(
  em: EntityManager,
  config: Config,
  token: string | null,
  options: { keyId?: string; userId?: string } = {},
): Promise<ApiKeyIdentity> {
  if (!token) throw unauthenticated('An API key is required: Authorization: Bearer <API_KEY>');
  const keyHash = sha256(token);
  const partnerId = matchPartnerKey(config, keyHash);
  if (partnerId) return { kind: 'partner', keyId: partnerId };

  if (!token.startsWith(API_KEY_PREFIX)) {
    throw unauthenticated(
      JWT_SHAPE.test(token) ? 'This endpoint takes an API key, not a user access token' : 'The API key is not valid',
    );
  }
  // Every pull starts here: a prepared statement on the pool, not an entity (see executeHot).
  const key = await selectKeyByHash(em, keyHash);
  if (!key) throw unauthenticated('The API key is not valid');
  if (
    (options.keyId !== undefined && key.id !== options.keyId) ||
    (options.userId !== undefined && key.user_id !== options.userId)
  ) {
    throw unauthenticated('The API key is not valid');
  }
  if (key.revoked_at) throw unauthenticated('The API key has been revoked');
  if (key.world_expired) throw unauthenticated('The API key belongs to a child world whose time to live has passed');
  // A user's key lives in the user's world: it expires, and is used, on the world's clock.
  const now = new Date(key.user_now);
  if (key.expires_at && new Date(key.expires_at).getTime() <= now.getTime()) throw unauthenticated('The API key has expired');
  await touchLastUsed(em, key, now);
  return { kind: 'user', keyId: key.id, userId: key.user_id, email: key.email, userNow: now };
}

/** Records use at a one-minute resolution; the condition keeps concurrent requests to one write. */
async function touchLastUsed(em: EntityManager, key: KeyRow, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (key.last_used_at && new Date(key.last_used_at) > cutoff) return;
  await em.nativeUpdate(
    ApiKeyEntity,
    { id: key.id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: cutoff } }] },
    { lastUsedAt: now },
  );
}

const unauthenticated = (message: string) => new AppError('UNAUTHENTICATED', message);
