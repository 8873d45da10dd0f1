/**
 * `POST /v1/sandbox/snapshots { name, scenario }`: a snapshot of a scenario, without touching the
 * caller's own world — what a test suite's global setup makes once (docs/guides/testing-your-app.md).
 * The scenario is applied to a temporary child world (as `POST /v1/worlds { scenario }` would),
 * that world is kept as a snapshot owned by the caller, and removed.
 */
import type { EntityManager } from '@sandbank/db';
import type { Deps } from '../../deps.ts';
import type { Scenario } from '../scenarios/scenario-document.ts';
import { removeWorlds } from './remove-worlds.ts';
import { type SnapshotRow, type TakeSnapshotParams, takeSnapshot } from './snapshots.ts';
import { createWorld } from './worlds.ts';

/** The temporary world lives at most this long, should the process die before removing it. */
const SCRATCH_TTL_MS = 600_000;

export async function snapshotScenario(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  { userId, name, include, scenario, limits }: Omit<TakeSnapshotParams, 'ownerId'> & { scenario: Scenario },
): Promise<SnapshotRow> {
  const { world } = await createWorld(em, deps, { parentId: userId, source: { scenario }, ttlMs: SCRATCH_TTL_MS });
  try {
    return await takeSnapshot(em, { userId: world.id, ownerId: userId, name, limits, ...(include ? { include } : {}) });
  } finally {
    await removeWorlds(em, [world.id]);
  }
}
