/**
 * Copying a snapshot into a world, set-wise inside PostgreSQL: one INSERT … SELECT per table
 * (accounts, transactions, schedules, schedule runs, payment files, payments, pinned rates), never row by row.
 *
 * Every row gets a new id derived in SQL from the fork's prefix (24 hex digits of a fresh
 *   UUID v7: its millisecond, version, variant and random bits) and the row's `ord` in the snapshot
 *   (the last 8 hex digits). References map by the same expression (`account_ord`, `reversal_ord`, …),
 *   so no mapping table is needed; ids keep the snapshot's order (ties in history lists fall the same
 *   way); the world's own user id is ord 0. A schedule's runs were booked as `sch_<scheduleId>_<n>`:
 *   the copy names the new schedule, so a repeated run stays idempotent in the child.
 * A restore (restore-snapshot.ts) copies the same way into the caller's emptied world: new ids there
 * too, since ids are never reused (the transaction list cache relies on it: transaction-list-cache.ts).
 *
 * Every instant of the world moves by the same `shift` (the world's now minus the snapshot's
 * `taken_at`), so "three days ago" stays three days ago, a hold that settles in two days still
 * settles in two days, and a schedule's next run is as far ahead as it was. One exception: a payment waiting for
 * its clearing session joins a session of the calendar, and a payment kept under an Idempotency-Key takes its request's
 * fingerprint with the copy's ids (copied-payments.ts).
 */
import type { EntityManager } from '@sandbank/db';
import { uuidv7 } from '../../lib/ids.ts';
import { copyFxWorld } from '../currencies/queries.ts';
import { paymentRemaps } from './copied-payments.ts';
import {
  type CopyTarget,
  copySnapshotRows,
  selectIsSuperuser,
  selectMaySetReplicationRole,
  setReplicationRole,
} from './queries/forks.ts';

export { type CopyTarget, idUnder } from './queries/forks.ts';

/**
 * Copies the snapshot's rows into the target world, inside the caller's transaction.
 *
 * `skipForeignKeyChecks` (see `canSkipForeignKeyChecks`): the copy runs with
 * `session_replication_role = replica`, so PostgreSQL does not run the foreign-key triggers of each
 * copied row (three per transaction: its account, its user, its reversal's original) — half of a
 * fork's time, measured. Safe here, and only here: every reference points into the same copy (derived
 * by the same expression from one snapshot, itself read as one consistent instant) or at the world's
 * user row written earlier in this transaction, and the snapshot's rows cannot go meanwhile (the
 * caller holds its row FOR KEY SHARE). The tables copied into have no other insert triggers. The role
 * is set back before anything else runs in the transaction.
 */
export async function copySnapshotInto(tx: EntityManager, target: CopyTarget, skipForeignKeyChecks = false): Promise<void> {
  const remaps = await paymentRemaps(tx, target);
  if (skipForeignKeyChecks) await setReplicationRole(tx, 'replica');
  await copySnapshotRows(tx, target, remaps);
  // The world's rates: its seed and pinned rates, days unmoved (a rate belongs to a calendar day).
  await copyFxWorld(tx, target);
  if (skipForeignKeyChecks) await setReplicationRole(tx, 'origin');
}

let skipAllowed: Promise<boolean> | undefined;

/**
 * Whether this database role may set `session_replication_role` (a superuser, as the embedded and
 * Docker setups connect, or a role granted `SET` on it: PostgreSQL 15+). Asked once per process; a
 * role that may not copies with the foreign-key checks on (correct, about twice as slow).
 */
export function canSkipForeignKeyChecks(em: EntityManager): Promise<boolean> {
  skipAllowed ??= (async () => {
    if (await selectIsSuperuser(em)) return true;
    try {
      return await selectMaySetReplicationRole(em);
    } catch {
      return false; // before PostgreSQL 15 only superusers may
    }
  })().catch(() => {
    skipAllowed = undefined;
    return false;
  });
  return skipAllowed;
}

/**
 * A fresh prefix for one copy: the first 24 hex digits of a new UUID v7 (its millisecond, version,
 * counter and variant), taken by this process so no other id of it starts the same; the last 8 are
 * each row's `ord`. `prefix + '00000000'` is free for the copy's own use (a child world's user id).
 */
export function newIdPrefix(): string {
  return uuidv7().replaceAll('-', '').slice(0, 24);
}
