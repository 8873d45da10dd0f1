/**
 * Child worlds (docs/concepts/disposable-worlds.md): `POST /v1/worlds` forks a snapshot (or applies a scenario) into a new
 * user owned by the caller, with its own access token and API key, removed when its TTL runs out.
 *
 * A child world is a user like any other — its own clock, events, webhooks and faces' credentials —
 * without a password (`password_hash` holds no argon2 hash, so no password ever matches: it signs
 * in only with the tokens and keys it was given or creates). Its parent sees it only through those
 * credentials; the parent's own calls never read a child's data.
 *
 * Fast by design (bench/README.md, "Disposable worlds"): no argon2 (the credentials are random
 * tokens stored as SHA-256 hashes, as every API key and refresh token is); the snapshot's rows are
 * copied set-wise in one database transaction (copy-world.ts); the parent is touched only at the very
 * end, to count its children under the limit (its user row locked FOR NO KEY UPDATE, which bookings'
 * KEY SHARE locks pass), so parallel forks of one parent overlap for all but that last moment, and the
 * parent's bookings never wait. The snapshot row is read FOR KEY SHARE: a concurrent delete of the
 * snapshot waits for the fork, which so never copies half of one.
 *
 * Removal (DELETE, or the worker once `expires_at` passed, wall time) deletes the world's user row:
 * every table of a world cascades from `users` (apps/api/test/worlds-removal.test.ts checks every
 * table of the schema), its own snapshots and children included.
 */
import type { EntityManager } from '@sandbank/db';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { lockUser } from '../auth/queries.ts';
import { issueSession, type Session } from '../auth/sessions.ts';
import { generateOpaqueToken, sha256 } from '../auth/tokens.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import { API_KEY_PREFIX } from '../integrations/api-keys.ts';
import { type ApplyScenarioResult, applyScenario } from '../scenarios/apply-scenario.ts';
import type { Scenario } from '../scenarios/scenario-document.ts';
import { canSkipForeignKeyChecks, copySnapshotInto, idUnder, newIdPrefix } from './copy-world.ts';
import { type ForkedCredentials, forkCredentials } from './fork-credentials.ts';
import { SHIFT_MS_SQL } from './queries.ts';
import { removeWorlds } from './remove-worlds.ts';

/** What a child world's `password_hash` holds: not an argon2 hash, so no password verifies against it. */
const NO_PASSWORD = '!world';

export interface WorldRow {
  id: string;
  email: string;
  parent_id: string;
  source: 'snapshot' | 'scenario';
  snapshot_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date | string;
}

export interface CreatedWorld {
  world: WorldRow;
  session: Session;
  apiKey: ApiKeyRow & { key: string };
  /** The snapshot's kept webhooks and API keys, made anew with fresh secrets (none unless it kept them). */
  credentials: ForkedCredentials;
  /** What the scenario built, for a world made from one. */
  scenario?: ApplyScenarioResult;
}

export interface CreateWorldParams {
  parentId: string;
  source: { snapshotId: string } | { scenario: Scenario };
  ttlMs: number;
}

const WORLD_COLUMNS = `w.id, u.email, w.parent_id, w.source, w.snapshot_id, w.created_at, w.expires_at`;

/** The generated address of a child world (a reserved domain: no mail goes anywhere). */
const worldEmail = (id: string) => `world-${id}@worlds.sandbank.invalid`;

export async function createWorld(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  params: CreateWorldParams,
): Promise<CreatedWorld> {
  // Fail fast before copying anything; the count that decides is taken again at the end, under the lock.
  await checkCanCreate(em, params.parentId, deps.config.limits.worlds, false);
  const prefix = newIdPrefix();
  const id = idUnder(prefix, 0);
  if ('snapshotId' in params.source) {
    const { snapshotId } = params.source;
    const skipChecks = await canSkipForeignKeyChecks(em);
    return em.transactional(async (tx) => {
      // A disposable world does not wait for its commit's WAL flush: a database crash in the next
      // moment may lose the whole fork (never half of it); the parent's rows are not written here.
      await tx.execute('set local synchronous_commit = off', [], 'run');
      const [forked] = await tx.execute<{ shift_ms: string; webhooks: number; api_keys: number }[]>(
        `with s as (select id, taken_at, clock_offset_ms, webhooks, api_keys from world_snapshots
                     where id = ? and user_id = ? for key share),
              u as (insert into users (id, email, password_hash, clock_offset_ms)
                    select ?, ?, ?, s.clock_offset_ms from s returning id, clock_offset_ms)
         select ${SHIFT_MS_SQL} as shift_ms, s.webhooks, s.api_keys from u, s`,
        [snapshotId, params.parentId, id, worldEmail(id), NO_PASSWORD],
      );
      if (!forked) throw notFound('Snapshot');
      const target = { snapshotId, userId: id, prefix, shiftMs: Number(forked.shift_ms) };
      await copySnapshotInto(tx, target, skipChecks);
      const credentials = await forkCredentials(tx, deps, target, {
        webhooks: Number(forked.webhooks),
        apiKeys: Number(forked.api_keys),
      });
      const world = await finishWorld(tx, deps, { id, parentId: params.parentId, snapshotId, ttlMs: params.ttlMs });
      return { ...world, credentials };
    });
  }
  const { scenario } = params.source;
  const created = await em.transactional(async (tx) => {
    await tx.execute('insert into users (id, email, password_hash) values (?, ?, ?)', [id, worldEmail(id), NO_PASSWORD], 'run');
    return finishWorld(tx, deps, { id, parentId: params.parentId, snapshotId: null, ttlMs: params.ttlMs });
  });
  try {
    const applied = await applyScenario(em, deps, { userId: id, scenario });
    return { ...created, credentials: { webhooks: [], apiKeys: [] }, scenario: applied };
  } catch (error) {
    // All or none: a scenario that does not apply leaves no world behind.
    await removeWorlds(em, [id]);
    throw error;
  }
}

/** FORBIDDEN for a child world (worlds nest one level); LIMIT_EXCEEDED at the parent's limit. */
async function checkCanCreate(em: EntityManager, parentId: string, limit: number, lock: boolean): Promise<void> {
  if (lock) await lockUser(em, parentId);
  const [row] = await em.execute<{ child: boolean; n: string }[]>(
    `select exists (select 1 from worlds where id = ?) as child,
            (select count(*) from worlds where parent_id = ? and expires_at > sandbank_wall_now()) as n`,
    [parentId, parentId],
  );
  if (row?.child) throw new AppError('FORBIDDEN', 'A child world cannot create worlds of its own; its parent can');
  const count = Number(row?.n ?? 0);
  if (count >= limit) {
    throw new AppError('LIMIT_EXCEEDED', `You have ${count} live worlds; the limit is ${limit}`, {
      details: [{ path: 'worlds', message: `At most ${limit} live child worlds per user (LIMIT_WORLDS)` }],
    });
  }
}

/** The credentials (a session and an API key, no argon2), then the parent's count under its lock, and the worlds row. */
async function finishWorld(
  tx: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  { id, parentId, snapshotId, ttlMs }: { id: string; parentId: string; snapshotId: string | null; ttlMs: number },
): Promise<Omit<CreatedWorld, 'credentials'>> {
  const session = await issueSession(tx, deps, { userId: id, world: true });
  const key = generateOpaqueToken(API_KEY_PREFIX);
  const [apiKey] = await tx.execute<ApiKeyRow[]>(
    `insert into api_keys (id, user_id, name, prefix, key_hash, created_at)
     select ?, u.id, 'World', ?, ?, ${WORLD_NOW_SQL} from users u where u.id = ?
     returning id, name, prefix, created_at`,
    [uuidv7(), key.slice(0, API_KEY_PREFIX.length + 8), sha256(key), id],
  );
  await checkCanCreate(tx, parentId, deps.config.limits.worlds, true);
  const [world] = await tx.execute<WorldRow[]>(
    `with w as (insert into worlds (id, parent_id, snapshot_id, source, expires_at, created_at)
                values (?, ?, ?, ?, sandbank_wall_now() + ? * interval '1 millisecond', sandbank_wall_now())
                returning *)
     select ${WORLD_COLUMNS} from w join users u on u.id = w.id`,
    [id, parentId, snapshotId, snapshotId ? 'snapshot' : 'scenario', ttlMs],
  );
  if (!world || !apiKey) throw new Error('the world was not written');
  return { world, session, apiKey: { ...apiKey, key } };
}

/** The caller's live child worlds, newest first. */
export async function listWorlds(
  em: EntityManager,
  { parentId, page, limit }: { parentId: string; page: number; limit: number },
): Promise<{ items: WorldRow[]; total: number }> {
  const items = await em.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id
      where w.parent_id = ? and w.expires_at > sandbank_wall_now()
      order by w.created_at desc, w.id desc limit ? offset ?`,
    [parentId, limit, (page - 1) * limit],
  );
  const [count] = await em.execute<{ n: string }[]>(
    'select count(*) as n from worlds where parent_id = ? and expires_at > sandbank_wall_now()',
    [parentId],
  );
  return { items, total: Number(count?.n ?? 0) };
}

/** One of the caller's live child worlds; anyone else's (or an expired one) is 404. */
export async function getWorld(em: EntityManager, { parentId, id }: { parentId: string; id: string }): Promise<WorldRow> {
  const [row] = await em.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id
      where w.id = ? and w.parent_id = ? and w.expires_at > sandbank_wall_now()`,
    [id, parentId],
  );
  if (!row) throw notFound('World');
  return row;
}

/** Ends one of the caller's child worlds at once: it and all its data are removed. */
export async function removeWorld(em: EntityManager, { parentId, id }: { parentId: string; id: string }): Promise<WorldRow> {
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<WorldRow[]>(
      `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id where w.id = ? and w.parent_id = ? for update of w`,
      [id, parentId],
    );
    if (!row) throw notFound('World');
    await removeWorlds(tx, [id]);
    return row;
  });
}
