/**
 * `POST /v1/sandbox/restore`: puts the caller's own world back to one of its snapshots.
 *
 * As a reset followed by a fork into the same world, in ONE database transaction under the world's
 * clock lock (no advance or due-item pass runs halfway): the world's accounts, transactions,
 * schedules and events go (resetWorld, which also expires sync cursors: 410 CURSOR_EXPIRED), the
 * clock takes the snapshot's offset again, and the snapshot's rows come back with new ids (ids are
 * never reused) and every instant moved by the same shift, as in a fork (copy-world.ts). API keys
 * and webhooks stay, keeping their age on the restored clock, as a reset keeps them.
 */
import type { EntityManager } from '@sandbank/db';
import { notFound } from '../../errors.ts';
import { DEADLOCK, retriedTransaction } from '../../lib/retried-transaction.ts';
import { withClockLock } from '../clock/clock.ts';
import { setClockOffset, shiftKeptRows } from '../sandbox/queries.ts';
import { type ResetCounts, resetWorld } from '../sandbox/reset-sandbox.ts';
import { canSkipForeignKeyChecks, copySnapshotInto, newIdPrefix } from './copy-world.ts';
import { lockSnapshot, type SnapshotRow, selectShiftMs, snapshotExists } from './queries/snapshot-rows.ts';

const FOREIGN_KEY_VIOLATION = '23503';

export interface RestoreResult {
  snapshot: SnapshotRow;
  removed: ResetCounts;
}

export async function restoreSnapshot(
  em: EntityManager,
  { userId, snapshotId }: { userId: string; snapshotId: string },
): Promise<RestoreResult> {
  // Fail before taking the clock lock when there is nothing to restore.
  if (!(await snapshotExists(em, userId, snapshotId))) throw notFound('Snapshot');
  const skipChecks = await canSkipForeignKeyChecks(em);
  return withClockLock(em, userId, () =>
    retriedTransaction(
      em,
      async (tx) => {
        const snapshot = await lockSnapshot(tx, userId, snapshotId);
        if (!snapshot) throw notFound('Snapshot');
        const removed = await resetWorld(tx, userId);
        // The clock takes the snapshot's offset; what the world keeps (keys, webhooks) moves with it, as a reset moved it back.
        const offset = Number(snapshot.clock_offset_ms);
        await setClockOffset(tx, userId, offset);
        await shiftKeptRows(tx, userId, { ms: offset });
        const target = { snapshotId, userId, prefix: newIdPrefix(), shiftMs: await selectShiftMs(tx, userId, snapshotId) };
        await copySnapshotInto(tx, target, skipChecks);
        return { snapshot, removed };
      },
      { codes: [DEADLOCK, FOREIGN_KEY_VIOLATION] },
    ),
  );
}
