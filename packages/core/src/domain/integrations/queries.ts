/**
 * The SQL of API-key authentication and owner resolution (docs/architecture.md, "The schema"): the
 * hot-path reads, as named prepared statements on the pool (`executeHot`).
 */
import { type EntityManager, executeHot, type Row } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

/** The rows' columns are the generated tables' (`Row`), so a migration changing one breaks this statement's callers. */
export type KeyRow = Pick<Row<'api_keys'>, 'id' | 'user_id' | 'last_used_at' | 'expires_at' | 'revoked_at'> &
  Pick<Row<'users'>, 'email'> & {
    /** The world's now (timestamptz text). */
    user_now: string;
    /** The key's user is a child world past its TTL, not yet swept: every credential of it is refused. */
    world_expired: boolean;
  };

const FIND_KEY = {
  sql: `select k.id, k.user_id, u.email, ${WORLD_NOW_SQL} as user_now, k.last_used_at, k.expires_at, k.revoked_at,
      exists (select 1 from worlds w where w.id = k.user_id and w.expires_at <= sandbank_wall_now()) as world_expired
    from api_keys k join users u on u.id = k.user_id where k.key_hash = ?`,
};

/** The API key with this hash, with its user's e-mail and world's now; or undefined. */
export async function selectKeyByHash(em: EntityManager, keyHash: string): Promise<KeyRow | undefined> {
  const [key] = await executeHot<KeyRow>(em, FIND_KEY, [keyHash]);
  return key;
}

const USER_MATCH = {
  id: 'id = ?',
  email: 'email = ?',
  'local part': "split_part(email, '@', 1) = ?",
} as const;

/** At most two users matching `value` (two are enough to know it is ambiguous), with their world's now. */
export function selectUsersBy(
  em: EntityManager,
  by: keyof typeof USER_MATCH,
  value: string,
): Promise<(Pick<Row<'users'>, 'id'> & { now: string })[]> {
  const sql = `select u.id, ${WORLD_NOW_SQL} as now from users u where ${USER_MATCH[by]} order by u.id limit 2`;
  return executeHot<Pick<Row<'users'>, 'id'> & { now: string }>(em, { sql }, [value]);
}
