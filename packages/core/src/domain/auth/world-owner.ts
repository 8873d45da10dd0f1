/**
 * A world's owner by either of its credentials: an access token (a JWT) or one of its API keys
 * (`sbk_…`). Partner keys read every owner but own no world: 403 FORBIDDEN. Used by
 * `worldOwnerProcedure` and by the MCP endpoint, which admits the same credentials.
 */
import type { EntityManager } from '@sandbank/db';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { authenticateApiKey } from '../integrations/authenticate-api-key.ts';
import { authenticateAccessToken } from './tokens.ts';

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export async function authenticateWorldOwner(
  em: EntityManager,
  deps: Deps,
  token: string | null,
): Promise<{ userId: string; credential: 'accessToken' | 'apiKey' }> {
  if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer access token or API key is required');
  if (JWT_SHAPE.test(token)) {
    const user = await authenticateAccessToken(em, deps, token);
    return { userId: user.id, credential: 'accessToken' };
  }
  const apiKey = await authenticateApiKey(em, deps.config, token);
  if (apiKey.kind !== 'user') throw new AppError('FORBIDDEN', 'A partner key owns no world; use a user’s token or API key');
  return { userId: apiKey.userId, credential: 'apiKey' };
}
