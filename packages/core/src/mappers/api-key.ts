/** The one ApiKey mapper: never the key, never its hash. */
import type { ApiKeyEntity } from '@sandbank/db';
import type { ApiKey } from '@sandbank/schemas';

export const toApiKey = (key: ApiKeyEntity): ApiKey => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null,
});
