import { defineEntity, p } from '@mikro-orm/core';

const UserDefinition = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    /** Stored trimmed and lower-cased; unique. */
    email: p.text(),
    passwordHash: p.text().hidden(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    updatedAt: p
      .datetime(3)
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class UserEntity extends UserDefinition.class {}
UserDefinition.setClass(UserEntity);

/** One refresh token of a session family; each token works once (rotation). */
const RefreshTokenDefinition = defineEntity({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  properties: {
    id: p.uuid().primary(),
    familyId: p.uuid(),
    user: () => p.manyToOne(UserEntity),
    tokenHash: p.text().hidden(),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
    /** A child world's session: every refresh issues a token with `wld`, and only while the world lives. */
    world: p.boolean().default(false),
    createdAt: p.datetime(3).onCreate(() => new Date()),
  },
});
export class RefreshTokenEntity extends RefreshTokenDefinition.class {}
RefreshTokenDefinition.setClass(RefreshTokenEntity);
