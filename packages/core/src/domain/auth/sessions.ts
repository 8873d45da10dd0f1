/**
 * Sessions: an access token plus a refresh token that belongs to a family. Refresh rotates the
 * token; presenting a token twice revokes its whole family (reuse detection), so a stolen token
 * dies as soon as its owner refreshes.
 */
import { type EntityManager, RefreshTokenEntity, UserEntity } from '@sandbank/db';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import {
  claimRefreshToken,
  lockRefreshTokenUser,
  revokeRefreshTokenFamily,
  revokeRefreshTokenFamilyOf,
  selectRefreshToken,
} from './queries.ts';
import { generateOpaqueToken, sha256, signAccessToken } from './tokens.ts';

export interface Session {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/** Starts a session (new family) or continues one (rotation) for a user. */
export async function issueSession(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  {
    userId,
    familyId = uuidv7(),
    world = false,
  }: { userId: string; familyId?: string /** A child world's session. */; world?: boolean },
): Promise<Session> {
  const refreshToken = generateOpaqueToken();
  em.create(RefreshTokenEntity, {
    id: uuidv7(),
    familyId,
    user: em.getReference(UserEntity, userId),
    tokenHash: sha256(refreshToken),
    world,
    expiresAt: new Date(Date.now() + deps.config.auth.refreshTokenTtlSeconds * 1000),
  });
  await em.flush();
  return {
    accessToken: await signAccessToken(deps, userId, familyId, { world }),
    refreshToken,
    tokenType: 'Bearer',
    expiresIn: deps.config.auth.accessTokenTtlSeconds,
  };
}

type RotateOutcome = { ok: true; session: Session } | { ok: false; reused: boolean };

/** Exchanges a refresh token for a new pair. Each token works once. */
export async function refreshSession(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  refreshToken: string,
): Promise<Session> {
  const tokenHash = sha256(refreshToken);
  const outcome = await em.transactional(async (tx): Promise<RotateOutcome> => {
    // Marking the token used and checking it is one statement, so two racing refreshes
    // cannot both succeed. A child world's session stays one (the token says so, not the world's
    // row) and refreshes only while its world lives.
    // The user's row first, as a removal locks it: see lockRefreshTokenUser.
    await lockRefreshTokenUser(tx, tokenHash);
    const claimed = await claimRefreshToken(tx, tokenHash);
    // The successor is written in the same transaction: a racing reuse that revokes the family
    // after this commit sees (and revokes) the new token too.
    if (claimed) {
      const { user_id: userId, family_id: familyId, world } = claimed;
      return { ok: true, session: await issueSession(tx, deps, { userId, familyId, world }) };
    }
    const known = await selectRefreshToken(tx, tokenHash);
    if (known?.used_at) {
      await revokeFamily(tx, known.family_id);
      return { ok: false, reused: true };
    }
    return { ok: false, reused: false };
  });
  if (!outcome.ok) {
    throw new AppError(
      'UNAUTHENTICATED',
      outcome.reused ? 'The refresh token was already used; the session is revoked' : 'The refresh token is not valid',
    );
  }
  return outcome.session;
}

export async function revokeFamily(em: EntityManager, familyId: string): Promise<void> {
  await revokeRefreshTokenFamily(em, familyId);
}

/** Revokes the session family a refresh token belongs to (used or not); nothing when the token is unknown. */
export async function revokeFamilyOfRefreshToken(em: EntityManager, refreshToken: string): Promise<void> {
  await revokeRefreshTokenFamilyOf(em, sha256(refreshToken));
}
