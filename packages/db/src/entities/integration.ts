import { defineEntity, p } from '@mikro-orm/core';
import { UserEntity } from './user.ts';

const ApiKeyDefinition = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(UserEntity),
    name: p.text(),
    /** The first characters of the key, shown in listings so users can tell keys apart. */
    prefix: p.text(),
    /** SHA-256 of the whole key (hex); keys have ≥ 256 bits of entropy, so no slow hash is needed. */
    keyHash: p.text().hidden(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    lastUsedAt: p.datetime(3).nullable(),
    expiresAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
  },
});
export class ApiKeyEntity extends ApiKeyDefinition.class {}
ApiKeyDefinition.setClass(ApiKeyEntity);
