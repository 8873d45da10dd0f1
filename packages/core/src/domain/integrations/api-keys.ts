/**
 * A user's API keys: `sbk_` + 256 random bits (base64url), shown once at creation and stored only
 * as a SHA-256 hash (enough for high-entropy keys) with a short visible prefix for listings.
 */
import { ApiKeyEntity, type EntityManager } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { generateOpaqueToken, sha256 } from '../auth/tokens.ts';
import { userNow } from '../clock/clock.ts';
import { checkUserLimit } from '../limits/per-user-limits.ts';

export const API_KEY_PREFIX = 'sbk_';
/** `sbk_` and 8 characters (48 of the 256 bits): enough to tell keys apart, far too few to guess the rest. */
export const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export interface CreatedApiKey {
  apiKey: ApiKeyEntity;
  /** The full key; it exists only in this response. */
  key: string;
}

export async function createApiKey(
  em: EntityManager,
  input: { userId: string; name: string; expiresAt?: Date | undefined /** LIMIT_API_KEYS */; limit: number },
): Promise<CreatedApiKey> {
  // A key lives in its user's world: created, used, revoked and expiring on the world's clock.
  const now = await userNow(em, input.userId);
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('VALIDATION_ERROR', '`expiresAt` must be in the future', {
      details: [{ path: 'expiresAt', message: 'Must be in the future' }],
    });
  }
  return em.transactional(async (tx) => {
    await checkUserLimit(tx, { userId: input.userId, resource: 'apiKeys', limit: input.limit });
    const key = generateOpaqueToken(API_KEY_PREFIX);
    const apiKey = tx.create(ApiKeyEntity, {
      id: uuidv7(),
      user: input.userId,
      name: input.name,
      prefix: key.slice(0, VISIBLE_PREFIX_LENGTH),
      keyHash: sha256(key),
      createdAt: now,
      expiresAt: input.expiresAt ?? null,
    });
    await tx.flush();
    return { apiKey, key };
  });
}

/**
 * The user's keys, newest first: `active` those not revoked (expired ones included, so their owner
 * sees why), `revoked` only the revoked ones, `all` both.
 */
export async function listApiKeys(
  em: EntityManager,
  input: { userId: string; status: 'active' | 'revoked' | 'all'; page: number; limit: number },
) {
  const revoked = { active: { revokedAt: null }, revoked: { revokedAt: { $ne: null } }, all: {} }[input.status];
  const [items, total] = await em.findAndCount(
    ApiKeyEntity,
    { user: input.userId, ...revoked },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: (input.page - 1) * input.limit },
  );
  return { items, total };
}

/** Revokes one of the user's keys at once; another user's key, or one already revoked, is 404. */
export async function revokeApiKey(em: EntityManager, input: { userId: string; id: string }): Promise<ApiKeyEntity> {
  const apiKey = await em.findOne(ApiKeyEntity, { id: input.id, user: input.userId, revokedAt: null });
  if (!apiKey) throw notFound('API key');
  apiKey.revokedAt = await userNow(em, input.userId);
  await em.flush();
  return apiKey;
}
