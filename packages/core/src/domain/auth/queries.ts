/**
 * The SQL of users and their sessions (docs/architecture.md, "The schema"): one named function per
 * statement, typed rows in and out; the domain modules call these instead of writing SQL inline.
 */
import type { EntityManager } from '@sandbank/db';

/**
 * Locks the user's row (FOR NO KEY UPDATE) until the transaction ends: creations counted against a
 * per-user limit, a reset and a world's creation serialise on it; bookings only KEY SHARE it.
 */
export async function lockUser(tx: EntityManager, userId: string): Promise<void> {
  await tx.execute('select 1 from users where id = ? for no key update', [userId]);
}

/** Revokes every live refresh token of a session family. */
export async function revokeRefreshTokenFamily(em: EntityManager, familyId: string): Promise<void> {
  await em.execute('update refresh_tokens set revoked_at = now() where family_id = ? and revoked_at is null', [familyId], 'run');
}

/** Revokes the live tokens of the family the token with this hash belongs to (nothing when unknown). */
export async function revokeRefreshTokenFamilyOf(em: EntityManager, tokenHash: string): Promise<void> {
  await em.execute(
    `update refresh_tokens set revoked_at = now()
      where family_id = (select family_id from refresh_tokens where token_hash = ?) and revoked_at is null`,
    [tokenHash],
    'run',
  );
}
