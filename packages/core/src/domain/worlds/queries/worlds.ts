/**
 * The SQL of child worlds (../worlds.ts): their user, API key and worlds rows, and reading or locking
 * them (docs/architecture.md, "The schema"). One named function per statement, written with Kysely
 * over the generated tables (`kysely(em)`).
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { sql } from 'kysely';
import { worldNowOf } from '../../clock/queries.ts';
import { SHIFT_MS_SQL } from './snapshots.ts';

const WALL_NOW = sql<string>`sandbank_wall_now()`;

export type WorldRow = Pick<Row<'worlds'>, 'id' | 'parent_id' | 'snapshot_id' | 'created_at' | 'expires_at'> &
  Pick<Row<'users'>, 'email'> & { source: 'snapshot' | 'scenario' };

/** A child world's own API key, as written (its key is only in the creation's answer). */
export type WorldApiKeyRow = Pick<Row<'api_keys'>, 'id' | 'name' | 'prefix' | 'created_at'>;

/** The worlds (aliased `w`) joined to their users (`u`), with WorldRow's columns. */
const selectWorldRows = (em: EntityManager) =>
  kysely(em)
    .selectFrom('worlds as w')
    .innerJoin('users as u', 'u.id', 'w.id')
    .select([
      'w.id',
      'u.email',
      'w.parent_id',
      sql<WorldRow['source']>`w.source`.as('source'),
      'w.snapshot_id',
      'w.created_at',
      'w.expires_at',
    ]);

/** The fork's commit does not wait for its WAL flush (see createWorld in worlds.ts). */
export async function setSynchronousCommitOff(tx: EntityManager): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(kysely(tx));
}

/**
 * The child's user row, with the snapshot's clock offset, in the statement that KEY SHARE locks the
 * parent's snapshot; the shift of the copy and the kept credentials' counts. Undefined: no such snapshot.
 */
export async function insertForkedUser(
  tx: EntityManager,
  p: { snapshotId: string; parentId: string; id: string; email: string; passwordHash: string },
): Promise<{ shift_ms: string; webhooks: number; api_keys: number } | undefined> {
  return kysely(tx)
    .with('s', (db) =>
      db
        .selectFrom('world_snapshots')
        .select(['id', 'taken_at', 'clock_offset_ms', 'webhooks', 'api_keys'])
        .where('id', '=', p.snapshotId)
        .where('user_id', '=', p.parentId)
        .forKeyShare(),
    )
    .with('u', (db) =>
      db
        .insertInto('users')
        .columns(['id', 'email', 'password_hash', 'clock_offset_ms'])
        .expression(
          db
            .selectFrom('s')
            .select([
              sql<string>`${p.id}::uuid`.as('id'),
              sql<string>`${p.email}::text`.as('email'),
              sql<string>`${p.passwordHash}::text`.as('password_hash'),
              's.clock_offset_ms',
            ]),
        )
        .returning(['id', 'clock_offset_ms']),
    )
    .selectFrom(['u', 's'])
    .select([sql<string>`${sql.raw(SHIFT_MS_SQL)}`.as('shift_ms'), 's.webhooks', 's.api_keys'])
    .executeTakeFirst();
}

/** The user row of a child world built from a scenario. */
export async function insertWorldUser(tx: EntityManager, p: { id: string; email: string; passwordHash: string }): Promise<void> {
  await kysely(tx).insertInto('users').values({ id: p.id, email: p.email, password_hash: p.passwordHash }).execute();
}

/** Whether the user is itself a child world, and how many live child worlds it has. */
export async function selectWorldCount(em: EntityManager, parentId: string): Promise<{ child: boolean; live: number }> {
  const row = await kysely(em)
    .selectNoFrom((eb) => [
      eb
        .exists(eb.selectFrom('worlds').select('id').where('id', '=', parentId))
        .$castTo<boolean>()
        .as('child'),
      eb
        .selectFrom('worlds')
        .select(eb.fn.countAll<string>().as('n'))
        .where('parent_id', '=', parentId)
        .where('expires_at', '>', WALL_NOW)
        .as('n'),
    ])
    .executeTakeFirst();
  return { child: row?.child === true, live: Number(row?.n ?? 0) };
}

/** The child world's API key, created at the world's now; undefined if its user row is missing. */
export async function insertWorldApiKey(
  tx: EntityManager,
  p: { id: string; prefix: string; keyHash: string; userId: string },
): Promise<WorldApiKeyRow | undefined> {
  const db = kysely(tx);
  return db
    .insertInto('api_keys')
    .columns(['id', 'user_id', 'name', 'prefix', 'key_hash', 'created_at'])
    .expression(
      db
        .selectFrom('users as u')
        .select([
          sql<string>`${p.id}::uuid`.as('id'),
          'u.id as user_id',
          sql<string>`'World'`.as('name'),
          sql<string>`${p.prefix}::text`.as('prefix'),
          sql<string>`${p.keyHash}::text`.as('key_hash'),
          worldNowOf('u').as('created_at'),
        ])
        .where('u.id', '=', p.userId),
    )
    .returning(['id', 'name', 'prefix', 'created_at'])
    .executeTakeFirst();
}

/** The worlds row of a child, expiring `ttlMs` from the wall clock's now. */
export async function insertWorld(
  tx: EntityManager,
  { id, parentId, snapshotId, ttlMs }: { id: string; parentId: string; snapshotId: string | null; ttlMs: number },
): Promise<WorldRow | undefined> {
  return kysely(tx)
    .with('w', (db) =>
      db
        .insertInto('worlds')
        .values({
          id,
          parent_id: parentId,
          snapshot_id: snapshotId,
          source: snapshotId ? 'snapshot' : 'scenario',
          expires_at: sql<string>`sandbank_wall_now() + ${ttlMs}::double precision * interval '1 millisecond'`,
          created_at: WALL_NOW,
        })
        .returningAll(),
    )
    .selectFrom('w')
    .innerJoin('users as u', 'u.id', 'w.id')
    .select([
      'w.id',
      'u.email',
      'w.parent_id',
      sql<WorldRow['source']>`w.source`.as('source'),
      'w.snapshot_id',
      'w.created_at',
      'w.expires_at',
    ])
    .executeTakeFirst();
}

/** A page of the parent's live child worlds, newest first. */
export async function selectWorlds(
  em: EntityManager,
  { parentId, limit, offset }: { parentId: string; limit: number; offset: number },
): Promise<WorldRow[]> {
  return selectWorldRows(em)
    .where('w.parent_id', '=', parentId)
    .where('w.expires_at', '>', WALL_NOW)
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** How many live child worlds the parent has. */
export async function countLiveWorlds(em: EntityManager, parentId: string): Promise<number> {
  const count = await kysely(em)
    .selectFrom('worlds')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('parent_id', '=', parentId)
    .where('expires_at', '>', WALL_NOW)
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

/** One of the parent's live child worlds, or undefined. */
export async function selectLiveWorld(
  em: EntityManager,
  { parentId, id }: { parentId: string; id: string },
): Promise<WorldRow | undefined> {
  return selectWorldRows(em)
    .where('w.id', '=', id)
    .where('w.parent_id', '=', parentId)
    .where('w.expires_at', '>', WALL_NOW)
    .executeTakeFirst();
}

/** One of the parent's child worlds (live or not), its worlds row locked FOR UPDATE; or undefined. */
export async function lockWorld(
  tx: EntityManager,
  { parentId, id }: { parentId: string; id: string },
): Promise<WorldRow | undefined> {
  return selectWorldRows(tx).where('w.id', '=', id).where('w.parent_id', '=', parentId).forUpdate('w').executeTakeFirst();
}
