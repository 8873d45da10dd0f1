/**
 * SimpleFIN's HTTP Basic credentials: the user id and one of that user's API keys (the one a claim
 * created, or any other). Anything else — no header, a malformed one, an unknown, revoked or
 * expired key, a partner key, a key of another user — is null, and the protocol answers 403.
 */
import type { Config } from '@sandbank/config';
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { authenticateApiKey } from '../integrations/authenticate-api-key.ts';

export interface SimplefinCredential {
  userId: string;
  /** The API key's id: not secret, so rate limits key on it. */
  keyId: string;
}

export async function authenticateSimplefin(
  em: EntityManager,
  config: Config,
  authorization: string | undefined,
): Promise<SimplefinCredential | null> {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  try {
    const identity = await authenticateApiKey(em, config, password);
    if (identity.kind !== 'user' || identity.userId !== user) return null;
    return { userId: identity.userId, keyId: identity.keyId };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
