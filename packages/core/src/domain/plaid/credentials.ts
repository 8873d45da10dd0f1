/**
 * Plaid's credentials (docs/faces/plaid.md): `client_id` is the Sandbank user's id, `secret` one of that user's
 * API keys (created, listed and revoked like any other, counted in LIMIT_API_KEYS). Anything else —
 * an unknown, revoked or expired key, a partner key, a key of another user — is null, and the face
 * answers Plaid's INVALID_API_KEYS.
 */
import type { Config } from '@sandbank/config';
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { authenticateApiKey } from '../integrations/authenticate-api-key.ts';

export interface PlaidCredential {
  userId: string;
  /** The API key's id: not secret, so rate limits key on it. */
  keyId: string;
}

export async function authenticatePlaid(
  em: EntityManager,
  config: Config,
  { clientId, secret }: { clientId: string; secret: string },
): Promise<PlaidCredential | null> {
  try {
    const identity = await authenticateApiKey(em, config, secret, { userId: clientId });
    if (identity.kind !== 'user') return null;
    return { userId: identity.userId, keyId: identity.keyId };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
