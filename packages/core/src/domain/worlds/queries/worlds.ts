/**
 * The SQL of child worlds (../worlds.ts): their user, API key and worlds rows, and reading or locking
 * them (docs/architecture.md, "The schema"). One named function per statement.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../../clock/clock.ts';
import { SHIFT_MS_SQL } from './snapshots.ts';

export interface WorldRow {
  id: string;
  email: string;
  parent_id: string;
  source: 'snapshot' | 'scenario';
  snapshot_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

/** A child world's own API key, as written (its key is only in the creation's answer). */
export interface WorldApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date | string;
}

const WORLD_COLUMNS = `w.id, u.email, w.parent_id, w.source, w.snapshot_id, w.created_at, w.expires_at`;

/** The fork's commit does not wait for its WAL flush (see createWorld in worlds.ts). */
export async function setSynchronousCommitOff(tx: EntityManager): Promise<void> {
  await tx.execute('set local synchronous_commit = off', [], 'run');
}

/**
 * The child's user row, with the snapshot's clock offset, in the statement that KEY SHARE locks the
 * parent's snapshot; the shift of the copy and the kept credentials' counts. Undefined: no such snapshot.
 */
export async function insertForkedUser(
  tx: EntityManager,
  p: { snapshotId: string; parentId: string; id: string; email: string; passwordHash: string },
): Promise<{ shift_ms: string; webhooks: number; api_keys: number } | undefined> {
  const [forked] = await tx.execute<{ shift_ms: string; webhooks: number; api_keys: number }[]>(
    `with s as (select id, taken_at, clock_offset_ms, webhooks, api_keys from world_snapshots
                     where id = ? and user_id = ? for key share),
              u as (insert into users (id, email, password_hash, clock_offset_ms)
                    select ?, ?, ?, s.clock_offset_ms from s returning id, clock_offset_ms)
         select ${SHIFT_MS_SQL} as shift_ms, s.webhooks, s.api_keys from u, s`,
    [p.snapshotId, p.parentId, p.id, p.email, p.passwordHash],
  );
  return forked;
}

/** The user row of a child world built from a scenario. */
export async function insertWorldUser(tx: EntityManager, p: { id: string; email: string; passwordHash: string }): Promise<void> {
  await tx.execute('insert into users (id, email, password_hash) values (?, ?, ?)', [p.id, p.email, p.passwordHash], 'run');
}

/** Whether the user is itself a child world, and how many live child worlds it has. */
export async function selectWorldCount(em: EntityManager, parentId: string): Promise<{ child: boolean; live: number }> {
  const [row] = await em.execute<{ child: boolean; n: string }[]>(
    `select exists (select 1 from worlds where id = ?) as child,
            (select count(*) from worlds where parent_id = ? and expires_at > sandbank_wall_now()) as n`,
    [parentId, parentId],
  );
  return { child: row?.child === true, live: Number(row?.n ?? 0) };
}

/** The child world's API key, created at the world's now; undefined if its user row is missing. */
export async function insertWorldApiKey(
  tx: EntityManager,
  p: { id: string; prefix: string; keyHash: string; userId: string },
): Promise<WorldApiKeyRow | undefined> {
  const [apiKey] = await tx.execute<WorldApiKeyRow[]>(
    `insert into api_keys (id, user_id, name, prefix, key_hash, created_at)
     select ?, u.id, 'World', ?, ?, ${WORLD_NOW_SQL} from users u where u.id = ?
     returning id, name, prefix, created_at`,
    [p.id, p.prefix, p.keyHash, p.userId],
  );
  return apiKey;
}

/** The worlds row of a child, expiring `ttlMs` from the wall clock's now. */
export async function insertWorld(
  tx: EntityManager,
  { id, parentId, snapshotId, ttlMs }: { id: string; parentId: string; snapshotId: string | null; ttlMs: number },
): Promise<WorldRow | undefined> {
  const [world] = await tx.execute<WorldRow[]>(
    `with w as (insert into worlds (id, parent_id, snapshot_id, source, expires_at, created_at)
                values (?, ?, ?, ?, sandbank_wall_now() + ? * interval '1 millisecond', sandbank_wall_now())
                returning *)
     select ${WORLD_COLUMNS} from w join users u on u.id = w.id`,
    [id, parentId, snapshotId, snapshotId ? 'snapshot' : 'scenario', ttlMs],
  );
  return world;
}

/** A page of the parent's live child worlds, newest first. */
export async function selectWorlds(
  em: EntityManager,
  { parentId, limit, offset }: { parentId: string; limit: number; offset: number },
): Promise<WorldRow[]> {
  return em.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id
      where w.parent_id = ? and w.expires_at > sandbank_wall_now()
      order by w.created_at desc, w.id desc limit ? offset ?`,
    [parentId, limit, offset],
  );
}

/** How many live child worlds the parent has. */
export async function countLiveWorlds(em: EntityManager, parentId: string): Promise<number> {
  const [count] = await em.execute<{ n: string }[]>(
    'select count(*) as n from worlds where parent_id = ? and expires_at > sandbank_wall_now()',
    [parentId],
  );
  return Number(count?.n ?? 0);
}

/** One of the parent's live child worlds, or undefined. */
export async function selectLiveWorld(
  em: EntityManager,
  { parentId, id }: { parentId: string; id: string },
): Promise<WorldRow | undefined> {
  const [row] = await em.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id
      where w.id = ? and w.parent_id = ? and w.expires_at > sandbank_wall_now()`,
    [id, parentId],
  );
  return row;
}

/** One of the parent's child worlds (live or not), its worlds row locked FOR UPDATE; or undefined. */
export async function lockWorld(
  tx: EntityManager,
  { parentId, id }: { parentId: string; id: string },
): Promise<WorldRow | undefined> {
  const [row] = await tx.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id where w.id = ? and w.parent_id = ? for update of w`,
    [id, parentId],
  );
  return row;
}
