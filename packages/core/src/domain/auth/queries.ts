/**
 * The SQL of users and their sessions (docs/architecture.md, "The schema"): one named function per
 * statement, typed rows in and out; the domain modules call these instead of writing SQL inline.
 */
import { type EntityManager, executeHot } from '@sandbank/db';

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

/**
 * Locks (FOR KEY SHARE) the user a refresh token belongs to, before the token itself: the refresh then
 * takes its locks in the order a user's removal takes them (the user row, then its tokens by cascade),
 * so the two wait on each other instead of deadlocking. A removal that got there first has deleted the
 * user by the time this returns, and the claim that follows finds no token.
 */
export async function lockRefreshTokenUser(tx: EntityManager, tokenHash: string): Promise<void> {
  await tx.execute('select 1 from users where id = (select user_id from refresh_tokens where token_hash = ?) for key share', [
    tokenHash,
  ]);
}

/**
 * Marks a live refresh token used (one conditional UPDATE: of two racing refreshes exactly one
 * wins); its user, its family and whether its session is a child world's (as the token was issued,
 * never read from the world's row), or undefined when it is unknown, used, revoked or expired, or a
 * world's whose world is no longer live (past its TTL, or its `worlds` row gone: removed, or its
 * parent's user deleted out of band while the child's user row stayed). A token not marked as a
 * world's (issued by code older than the mark) is still refused past its world's TTL and still
 * issues `wld` while the world lives: the `worlds` row is asked too.
 */
export async function claimRefreshToken(
  tx: EntityManager,
  tokenHash: string,
): Promise<{ user_id: string; family_id: string; world: boolean } | undefined> {
  const [claimed] = await tx.execute<{ user_id: string; family_id: string; world: boolean }[]>(
    `update refresh_tokens set used_at = now()
        where token_hash = ? and used_at is null and revoked_at is null and expires_at > now()
          and (not world
               or exists (select 1 from worlds w where w.id = refresh_tokens.user_id and w.expires_at > sandbank_wall_now()))
          and not exists (select 1 from worlds w where w.id = refresh_tokens.user_id and w.expires_at <= sandbank_wall_now())
        returning user_id, family_id, world or exists (select 1 from worlds w where w.id = refresh_tokens.user_id) as world`,
    [tokenHash],
  );
  return claimed;
}

/** A refresh token's family and when it was used, whatever its state; or undefined. */
export async function selectRefreshToken(
  tx: EntityManager,
  tokenHash: string,
): Promise<{ family_id: string; used_at: Date | null } | undefined> {
  const [known] = await tx.execute<{ family_id: string; used_at: Date | null }[]>(
    'select family_id, used_at from refresh_tokens where token_hash = ?',
    [tokenHash],
  );
  return known;
}

const LIVE_WORLD = { sql: 'select 1 as live from worlds where id = ? and expires_at > sandbank_wall_now()' };

/** Whether the child world exists and has not expired (a prepared statement: every request of a world's token asks). */
export async function worldIsLive(em: EntityManager, worldId: string): Promise<boolean> {
  const [live] = await executeHot<{ live: number }>(em, LIVE_WORLD, [worldId]);
  return live !== undefined;
}
