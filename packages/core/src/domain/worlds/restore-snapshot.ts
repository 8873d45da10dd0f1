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
import { type ResetCounts, resetWorld } from '../sandbox/reset-sandbox.ts';
import { canSkipForeignKeyChecks, copySnapshotInto, newIdPrefix, SHIFT_MS_SQL } from './copy-world.ts';
import { SNAPSHOT_COLUMNS, type SnapshotRow } from './snapshots.ts';

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
  const [known] = await em.execute('select 1 from world_snapshots where id = ? and user_id = ?', [snapshotId, userId]);
  if (!known) throw notFound('Snapshot');
  const skipChecks = await canSkipForeignKeyChecks(em);
  return withClockLock(em, userId, () =>
    retriedTransaction(
      em,
      async (tx) => {
        const [snapshot] = await tx.execute<SnapshotRow[]>(
          `select ${SNAPSHOT_COLUMNS} from world_snapshots where id = ? and user_id = ? for key share`,
          [snapshotId, userId],
        );
        if (!snapshot) throw notFound('Snapshot');
        const removed = await resetWorld(tx, userId);
        // The clock takes the snapshot's offset; what the world keeps (keys, webhooks) moves with it, as a reset moved it back.
        const shift = `(? * interval '1 millisecond')`;
        const offset = Number(snapshot.clock_offset_ms);
        await tx.execute('update users set clock_offset_ms = ? where id = ?', [offset, userId], 'run');
        await tx.execute(
          `update api_keys set created_at = created_at + ${shift}, last_used_at = last_used_at + ${shift},
             expires_at = expires_at + ${shift}, revoked_at = revoked_at + ${shift} where user_id = ?`,
          [offset, offset, offset, offset, userId],
          'run',
        );
        await tx.execute(`update webhooks set created_at = created_at + ${shift} where user_id = ?`, [offset, userId], 'run');
        const [row] = await tx.execute<{ shift_ms: string }[]>(
          `select ${SHIFT_MS_SQL} as shift_ms from users u, world_snapshots s where u.id = ? and s.id = ?`,
          [userId, snapshotId],
        );
        const target = { snapshotId, userId, prefix: newIdPrefix(), shiftMs: Number(row?.shift_ms ?? 0) };
        await copySnapshotInto(tx, target, skipChecks);
        return { snapshot, removed };
      },
      { codes: [DEADLOCK, FOREIGN_KEY_VIOLATION] },
    ),
  );
}
