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
import { API_KEY_PREFIX } from '../integrations/api-keys.ts';
import { type ApplyScenarioResult, applyScenario } from '../scenarios/apply-scenario.ts';
import type { Scenario } from '../scenarios/scenario-document.ts';
import { canSkipForeignKeyChecks, copySnapshotInto, idUnder, newIdPrefix } from './copy-world.ts';
import { type ForkedCredentials, forkCredentials } from './fork-credentials.ts';
import {
  countLiveWorlds,
  insertForkedUser,
  insertWorld,
  insertWorldApiKey,
  insertWorldUser,
  lockWorld,
  selectLiveWorld,
  selectWorldCount,
  selectWorlds,
  setSynchronousCommitOff,
  type WorldApiKeyRow,
  type WorldRow,
} from './queries/worlds.ts';
import { removeWorlds } from './remove-worlds.ts';

/** What a child world's `password_hash` holds: not an argon2 hash, so no password verifies against it. */
const NO_PASSWORD = '!world';

export type { WorldRow };

export interface CreatedWorld {
  world: WorldRow;
  session: Session;
  apiKey: WorldApiKeyRow & { key: string };
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
      await setSynchronousCommitOff(tx);
      const forked = await insertForkedUser(tx, {
        snapshotId,
        parentId: params.parentId,
        id,
        email: worldEmail(id),
        passwordHash: NO_PASSWORD,
      });
      if (!forked) throw notFound('Snapshot');
      const target = { snapshotId, userId: id, prefix, shiftMs: Number(forked.shift_ms) };
      // The credentials first: a fork whose kept keys break LIMIT_API_KEYS is refused before the copy.
      const credentials = await forkCredentials(tx, deps, target, {
        webhooks: Number(forked.webhooks),
        apiKeys: Number(forked.api_keys),
      });
      await copySnapshotInto(tx, target, skipChecks);
      const world = await finishWorld(tx, deps, { id, parentId: params.parentId, snapshotId, ttlMs: params.ttlMs });
      return { ...world, credentials };
    });
  }
  const { scenario } = params.source;
  const created = await em.transactional(async (tx) => {
    await insertWorldUser(tx, { id, email: worldEmail(id), passwordHash: NO_PASSWORD });
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
  const row = await selectWorldCount(em, parentId);
  if (row.child) throw new AppError('FORBIDDEN', 'A child world cannot create worlds of its own; its parent can');
  const count = row.live;
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
  const apiKey = await insertWorldApiKey(tx, {
    id: uuidv7(),
    prefix: key.slice(0, API_KEY_PREFIX.length + 8),
    keyHash: sha256(key),
    userId: id,
  });
  await checkCanCreate(tx, parentId, deps.config.limits.worlds, true);
  const world = await insertWorld(tx, { id, parentId, snapshotId, ttlMs });
  if (!world || !apiKey) throw new Error('the world was not written');
  return { world, session, apiKey: { ...apiKey, key } };
}

/** The caller's live child worlds, newest first. */
export async function listWorlds(
  em: EntityManager,
  { parentId, page, limit }: { parentId: string; page: number; limit: number },
): Promise<{ items: WorldRow[]; total: number }> {
  const items = await selectWorlds(em, { parentId, limit, offset: (page - 1) * limit });
  return { items, total: await countLiveWorlds(em, parentId) };
}

/** One of the caller's live child worlds; anyone else's (or an expired one) is 404. */
export async function getWorld(em: EntityManager, { parentId, id }: { parentId: string; id: string }): Promise<WorldRow> {
  const row = await selectLiveWorld(em, { parentId, id });
  if (!row) throw notFound('World');
  return row;
}

/** Ends one of the caller's child worlds at once: it and all its data are removed. */
export async function removeWorld(em: EntityManager, { parentId, id }: { parentId: string; id: string }): Promise<WorldRow> {
  return em.transactional(async (tx) => {
    const row = await lockWorld(tx, { parentId, id });
    if (!row) throw notFound('World');
    await removeWorlds(tx, [id]);
    return row;
  });
}
