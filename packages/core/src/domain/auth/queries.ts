/**
 * The SQL of users and their sessions (docs/architecture.md, "The schema"): one named function per
 * statement, written with Kysely over the generated table types (`kysely(em)`, bound to the
 * EntityManager's transaction), so every column and every row type is checked against the schema.
 */
import { type EntityManager, executeHot, kysely } from '@sandbank/db';
import { sql } from 'kysely';

const NOW = sql<string>`now()`;
const WALL_NOW = sql<string>`sandbank_wall_now()`;

/**
 * Locks the user's row (FOR NO KEY UPDATE) until the transaction ends: creations counted against a
 * per-user limit, a reset and a world's creation serialise on it; bookings only KEY SHARE it.
 */
export async function lockUser(tx: EntityManager, userId: string): Promise<void> {
  await kysely(tx).selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
}

/** Revokes every live refresh token of a session family. */
export async function revokeRefreshTokenFamily(em: EntityManager, familyId: string): Promise<void> {
  await kysely(em)
    .updateTable('refresh_tokens')
    .set({ revoked_at: NOW })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes the live tokens of the family the token with this hash belongs to (nothing when unknown). */
export async function revokeRefreshTokenFamilyOf(em: EntityManager, tokenHash: string): Promise<void> {
  const db = kysely(em);
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: NOW })
    .where('family_id', '=', db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', tokenHash))
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Locks (FOR KEY SHARE) the user a refresh token belongs to, before the token itself: the refresh then
 * takes its locks in the order a user's removal takes them (the user row, then its tokens by cascade),
 * so the two wait on each other instead of deadlocking. A removal that got there first has deleted the
 * user by the time this returns, and the claim that follows finds no token.
 */
export async function lockRefreshTokenUser(tx: EntityManager, tokenHash: string): Promise<void> {
  const db = kysely(tx);
  await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', db.selectFrom('refresh_tokens').select('user_id').where('token_hash', '=', tokenHash))
    .forKeyShare()
    .execute();
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
  return kysely(tx)
    .updateTable('refresh_tokens')
    .set({ used_at: NOW })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', NOW)
    .where((eb) => {
      const worldOf = () => eb.selectFrom('worlds as w').select('w.id').whereRef('w.id', '=', 'refresh_tokens.user_id');
      return eb.and([
        eb.or([eb('world', '=', false), eb.exists(worldOf().where('w.expires_at', '>', WALL_NOW))]),
        eb.not(eb.exists(worldOf().where('w.expires_at', '<=', WALL_NOW))),
      ]);
    })
    .returning((eb) => [
      'user_id',
      'family_id',
      eb
        .or([
          eb('world', '=', true),
          eb.exists(eb.selectFrom('worlds as w').select('w.id').whereRef('w.id', '=', 'refresh_tokens.user_id')),
        ])
        .$castTo<boolean>()
        .as('world'),
    ])
    .executeTakeFirst();
}

/** A refresh token's family and when it was used (PostgreSQL's timestamp text), whatever its state; or undefined. */
export async function selectRefreshToken(
  tx: EntityManager,
  tokenHash: string,
): Promise<{ family_id: string; used_at: string | null } | undefined> {
  return kysely(tx)
    .selectFrom('refresh_tokens')
    .select(['family_id', 'used_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

const LIVE_WORLD = { sql: 'select 1 as live from worlds where id = ? and expires_at > sandbank_wall_now()' };

/** Whether the child world exists and has not expired (a prepared statement: every request of a world's token asks). */
export async function worldIsLive(em: EntityManager, worldId: string): Promise<boolean> {
  const [live] = await executeHot<{ live: number }>(em, LIVE_WORLD, [worldId]);
  return live !== undefined;
}
