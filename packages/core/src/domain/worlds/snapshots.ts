/**
 * Snapshots: `POST /v1/sandbox/snapshots` keeps the caller's world as it is now — its
 * accounts, transactions in every lifecycle state (holds included), schedules with their runs,
 * payments and payment files (a payment's hold keeps its payment, which settles or releases it), and
 * the clock (its now and offset) — in tables of their own (migrations 20261126010000-worlds and
 * 20261129140002-snapshot-payments). Not kept: sessions, faces' links and the event log; webhooks and API keys only when asked (`include`),
 * and then without their secrets: a webhook as its subscription, a key as its name and dates (a fork
 * makes each anew with a fresh secret: fork-credentials.ts).
 *
 * Taking one never blocks the world: the rows are read in one REPEATABLE READ transaction (one
 * consistent view of every table, as of its first statement) with plain reads, no row locks, so
 * bookings, transitions and advances go on meanwhile; the snapshot is the world as of one instant.
 * Snapshots of one user are taken one at a time (an advisory lock) so the per-user limit counts
 * every one of them; the lock is waited for without a database connection (packages/db/src/advisory-lock.ts).
 */
import { acquireAdvisoryLock, type EntityManager } from '@sandbank/db';
import { AppError, notFound, worldGone } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { keepFxWorld } from '../currencies/queries.ts';
import { familyOf } from '../tenancy/family.ts';
import {
  countSnapshots,
  deleteSnapshotRow,
  insertSnapshot,
  type SnapshotInclude,
  type SnapshotRow,
  selectSnapshot,
  selectSnapshots,
  selectWorldToKeep,
  setRepeatableRead,
} from './queries/snapshot-rows.ts';
import {
  keepAccounts,
  keepApiKeys,
  keepPaymentFiles,
  keepPayments,
  keepScheduleRuns,
  keepSchedules,
  keepTransactions,
  keepWebhooks,
} from './queries/snapshots.ts';

export type { SnapshotRow };

const LOCK_WAIT_MS = 30_000;
const KINDS: readonly SnapshotInclude[] = ['webhooks', 'apiKeys'];

export interface TakeSnapshotParams {
  /** The world kept. */
  userId: string;
  /** Who owns the snapshot (default: the world's user); another user for a snapshot of a scenario (scenario-snapshot.ts). */
  ownerId?: string;
  name: string;
  /** Also keep the world's webhooks (subscriptions) and API keys (names and dates), never their secrets. */
  include?: readonly SnapshotInclude[];
  limits: { snapshots: number; snapshotTransactions: number };
}

export async function takeSnapshot(em: EntityManager, params: TakeSnapshotParams): Promise<SnapshotRow> {
  const ownerId = params.ownerId ?? params.userId;
  const lock = await acquireAdvisoryLock(em, `sandbank.snapshots:${ownerId}`, LOCK_WAIT_MS, {
    share: await familyOf(em, ownerId),
  });
  if (!lock) throw new AppError('CONFLICT', 'Another snapshot of this world is being taken; retry when it ends');
  try {
    const existing = await countSnapshots(em, ownerId);
    if (existing >= params.limits.snapshots) {
      throw new AppError('LIMIT_EXCEEDED', `You have ${existing} snapshots; the limit is ${params.limits.snapshots}`, {
        details: [{ path: 'snapshots', message: `At most ${params.limits.snapshots} snapshots per user` }],
      });
    }
    return await em.transactional(async (tx) => {
      // Every statement below reads the world as of the first one: one consistent instant, no locks.
      await setRepeatableRead(tx);
      return copyWorld(tx, { ...params, ownerId });
    });
  } finally {
    await lock.release();
  }
}

async function copyWorld(
  tx: EntityManager,
  { userId, ownerId, name, include = [], limits }: TakeSnapshotParams & { ownerId: string },
): Promise<SnapshotRow> {
  const world = await selectWorldToKeep(tx, userId);
  if (!world) throw worldGone();
  const [accounts, transactions, schedules] = [Number(world.a), Number(world.t), Number(world.s)];
  const webhooks = include.includes('webhooks') ? Number(world.w) : 0;
  const apiKeys = include.includes('apiKeys') ? Number(world.k) : 0;
  if (transactions > limits.snapshotTransactions) {
    throw new AppError(
      'LIMIT_EXCEEDED',
      `The world has ${transactions} transactions; a snapshot keeps at most ${limits.snapshotTransactions}`,
      { details: [{ path: 'transactions', message: `At most ${limits.snapshotTransactions} transactions per snapshot` }] },
    );
  }
  const id = uuidv7();
  const row = await insertSnapshot(tx, {
    id,
    ownerId,
    name,
    takenAt: new Date(world.now),
    offsetMs: world.offset_ms,
    accounts,
    transactions,
    schedules,
    webhooks,
    apiKeys,
    // In one order, so two snapshots asked for the same kinds say so alike (the client compares them).
    include: KINDS.filter((kind) => include.includes(kind)),
  });
  // One numbering across the snapshot's tables (accounts, transactions, schedules, webhooks, API keys, payment files,
  // payments), in id order.
  const beforeFiles = accounts + transactions + schedules + webhooks + apiKeys;
  await keepAccounts(tx, { snapshotId: id, userId });
  await keepSchedules(tx, { snapshotId: id, userId, after: accounts + transactions });
  // Before the transactions, which name their payment by its ord.
  await keepPaymentFiles(tx, { snapshotId: id, userId, after: beforeFiles });
  await keepPayments(tx, { snapshotId: id, userId, after: beforeFiles + Number(world.f) });
  // A schedule's run was booked as sch_<scheduleId>_<n>: the snapshot remembers which schedule, so a fork renames it.
  await keepTransactions(tx, { snapshotId: id, userId, after: accounts });
  await keepScheduleRuns(tx, id);
  // The world's rates: its seed and pinned rates (docs/concepts/currencies.md).
  await keepFxWorld(tx, { snapshotId: id, userId });
  // Numbered after the schedules: a fork derives their new ids from `ord` like every other row's.
  if (webhooks > 0) await keepWebhooks(tx, { snapshotId: id, userId, after: accounts + transactions + schedules });
  if (apiKeys > 0) await keepApiKeys(tx, { snapshotId: id, userId, after: accounts + transactions + schedules + webhooks });
  if (!row) throw new Error('the snapshot row was not written');
  return row;
}

export async function listSnapshots(
  em: EntityManager,
  { userId, page, limit }: { userId: string; page: number; limit: number },
): Promise<{ items: SnapshotRow[]; total: number }> {
  const items = await selectSnapshots(em, { userId, limit, offset: (page - 1) * limit });
  return { items, total: await countSnapshots(em, userId) };
}

/** One of the user's snapshots; another user's, or an unknown one, is 404. */
export async function getSnapshot(em: EntityManager, { userId, id }: { userId: string; id: string }): Promise<SnapshotRow> {
  const row = await selectSnapshot(em, userId, id);
  if (!row) throw notFound('Snapshot');
  return row;
}

/** Deletes one of the user's snapshots (its rows cascade); worlds forked from it live on. */
export async function deleteSnapshot(em: EntityManager, { userId, id }: { userId: string; id: string }): Promise<SnapshotRow> {
  const row = await deleteSnapshotRow(em, userId, id);
  if (!row) throw notFound('Snapshot');
  return row;
}
