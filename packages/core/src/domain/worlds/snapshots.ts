/**
 * Snapshots: `POST /v1/sandbox/snapshots` keeps the caller's world as it is now — its
 * accounts, transactions in every lifecycle state (holds included), schedules with their runs, and
 * the clock (its now and offset) — in tables of their own (migration 20261126010000-worlds). Not
 * kept: sessions, faces' links and the event log; webhooks and API keys only when asked (`include`),
 * and then without their secrets: a webhook as its subscription, a key as its name and dates (a fork
 * makes each anew with a fresh secret: fork-credentials.ts).
 *
 * Taking one never blocks the world: the rows are read in one REPEATABLE READ transaction (one
 * consistent view of every table, as of its first statement) with plain reads, no row locks, so
 * bookings, transitions and advances go on meanwhile; the snapshot is the world as of one instant.
 * Snapshots of one user are taken one at a time (an advisory lock) so the per-user limit counts
 * every one of them.
 */
import { acquireAdvisoryLock, type EntityManager } from '@sandbank/db';
import { AppError, notFound, worldGone } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import { SNAPSHOT_COLUMNS, type SnapshotRow } from './queries.ts';

export type { SnapshotRow };

/** What a snapshot keeps beyond the world's money and clock, when asked. */
type SnapshotInclude = 'webhooks' | 'apiKeys';

const LOCK_WAIT_MS = 30_000;

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
  const lock = await acquireAdvisoryLock(em, `sandbank.snapshots:${ownerId}`, LOCK_WAIT_MS);
  if (!lock) throw new AppError('CONFLICT', 'Another snapshot of this world is being taken; retry when it ends');
  try {
    const [count] = await em.execute<{ n: string }[]>('select count(*) as n from world_snapshots where user_id = ?', [ownerId]);
    const existing = Number(count?.n ?? 0);
    if (existing >= params.limits.snapshots) {
      throw new AppError('LIMIT_EXCEEDED', `You have ${existing} snapshots; the limit is ${params.limits.snapshots}`, {
        details: [{ path: 'snapshots', message: `At most ${params.limits.snapshots} snapshots per user` }],
      });
    }
    return await em.transactional(async (tx) => {
      // Every statement below reads the world as of the first one: one consistent instant, no locks.
      await tx.execute('set transaction isolation level repeatable read', [], 'run');
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
  const [world] = await tx.execute<{ now: Date; offset_ms: string; a: string; t: string; s: string; w: string; k: string }[]>(
    `select ${WORLD_NOW_SQL} as now, u.clock_offset_ms as offset_ms,
            (select count(*) from accounts where user_id = u.id) as a,
            (select count(*) from transactions where user_id = u.id) as t,
            (select count(*) from schedules where user_id = u.id) as s,
            (select count(*) from webhooks w where w.user_id = u.id and ${keptWebhooks('w')}) as w,
            (select count(*) from api_keys k where k.user_id = u.id and ${keptApiKeys('k')}) as k
       from users u where u.id = ?`,
    [userId],
  );
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
  const [row] = await tx.execute<SnapshotRow[]>(
    `insert into world_snapshots (id, user_id, name, taken_at, clock_offset_ms, accounts, transactions, schedules, webhooks,
                                  api_keys, created_at)
     values (?, ?, ?, ?::timestamptz, ?, ?, ?, ?, ?, ?, now()) returning ${SNAPSHOT_COLUMNS}`,
    [id, ownerId, name, new Date(world.now).toISOString(), world.offset_ms, accounts, transactions, schedules, webhooks, apiKeys],
  );
  // One numbering across the snapshot's tables (accounts, then transactions, then schedules), in id order.
  await tx.execute(
    `insert into world_snapshot_accounts (snapshot_id, ord, id, name, balance, currency, status, created_at, closed_at,
                                          transaction_count, held_amount)
     select ?, row_number() over (order by a.id), a.id, a.name, a.balance, a.currency, a.status, a.created_at, a.closed_at,
            a.transaction_count, a.held_amount
       from accounts a where a.user_id = ?`,
    [id, userId],
    'run',
  );
  await tx.execute(
    `insert into world_snapshot_schedules (snapshot_id, ord, id, account_ord, account_id, amount, description, merchant,
                                           category, rrule, timezone, start_at, status, settle_after, state, next_run_at,
                                           next_run_n, created_at)
     select ?, ?::int + row_number() over (order by s.id), s.id, sa.ord, s.account_id, s.amount, s.description, s.merchant,
            s.category, s.rrule, s.timezone, s.start_at, s.status, s.settle_after, s.state, s.next_run_at, s.next_run_n,
            s.created_at
       from schedules s join world_snapshot_accounts sa on sa.snapshot_id = ? and sa.id = s.account_id
      where s.user_id = ?`,
    [id, accounts + transactions, id, userId],
    'run',
  );
  // A schedule's run was booked as sch_<scheduleId>_<n>: the snapshot remembers which schedule, so a fork renames it.
  await tx.execute(
    `with t as (select t.*, ?::int + row_number() over (order by t.id) as ord from transactions t where t.user_id = ?)
     insert into world_snapshot_transactions (snapshot_id, ord, id, account_ord, account_id, external_txn_id, schedule_ord,
                                              amount, currency, date, description, raw, status, posted_at, version, merchant,
                                              category, reversal_ord, reversal_of, reversed_amount, settle_at, expire_at,
                                              created_at, request_fingerprint, posted_from_pending)
     select ?, t.ord, t.id, sa.ord, t.account_id, t.external_txn_id, ss.ord, t.amount, t.currency, t.date, t.description,
            t.raw, t.status, t.posted_at, t.version, t.merchant, t.category, r.ord, t.reversal_of, t.reversed_amount,
            t.settle_at, t.expire_at, t.created_at, t.request_fingerprint, t.posted_from_pending
       from t
       join world_snapshot_accounts sa on sa.snapshot_id = ? and sa.id = t.account_id
       left join world_snapshot_schedules ss
         on ss.snapshot_id = ? and t.external_txn_id like 'sch\\_%' and substr(t.external_txn_id, 41, 1) = '_'
        and ss.id::text = substr(t.external_txn_id, 5, 36)
       left join t r on r.id = t.reversal_of`,
    [accounts, userId, id, id, id],
    'run',
  );
  await tx.execute(
    `insert into world_snapshot_schedule_runs (snapshot_id, schedule_ord, schedule_id, n, due_at, transaction_ord,
                                               transaction_id, failure_code, failure_message, created_at)
     select ?, ss.ord, r.schedule_id, r.n, r.due_at, st.ord, st.id, r.failure_code, r.failure_message, r.created_at
       from schedule_runs r
       join world_snapshot_schedules ss on ss.snapshot_id = ? and ss.id = r.schedule_id
       left join world_snapshot_transactions st on st.snapshot_id = ? and st.id = r.transaction_id`,
    [id, id, id],
    'run',
  );
  // Numbered after the schedules: a fork derives their new ids from `ord` like every other row's.
  if (webhooks > 0) {
    await tx.execute(
      `insert into world_snapshot_webhooks (snapshot_id, ord, id, client_id, url, events, status, disabled_reason, faults,
                                            created_at)
       select ?, ?::int + row_number() over (order by w.id), w.id, w.client_id, w.url, w.events, w.status, w.disabled_reason,
              w.faults, w.created_at
         from webhooks w where w.user_id = ? and ${keptWebhooks('w')}`,
      [id, accounts + transactions + schedules, userId],
      'run',
    );
  }
  if (apiKeys > 0) {
    await tx.execute(
      `insert into world_snapshot_api_keys (snapshot_id, ord, id, name, created_at, expires_at)
       select ?, ?::int + row_number() over (order by k.id), k.id, k.name, k.created_at, k.expires_at
         from api_keys k where k.user_id = ? and ${keptApiKeys('k')}`,
      [id, accounts + transactions + schedules + webhooks, userId],
      'run',
    );
  }
  if (!row) throw new Error('the snapshot row was not written');
  return row;
}

/** The webhooks a snapshot keeps: not deleted, and not a Plaid item's (the item itself is not kept). */
const keptWebhooks = (w: string) => `${w}.deleted_at is null and ${w}.plaid_item_id is null`;
/** The API keys a snapshot keeps: not revoked (an expired one too, as its owner lists it). */
const keptApiKeys = (k: string) => `${k}.revoked_at is null`;

export async function listSnapshots(
  em: EntityManager,
  { userId, page, limit }: { userId: string; page: number; limit: number },
): Promise<{ items: SnapshotRow[]; total: number }> {
  const items = await em.execute<SnapshotRow[]>(
    `select ${SNAPSHOT_COLUMNS} from world_snapshots where user_id = ? order by created_at desc, id desc limit ? offset ?`,
    [userId, limit, (page - 1) * limit],
  );
  const [count] = await em.execute<{ n: string }[]>('select count(*) as n from world_snapshots where user_id = ?', [userId]);
  return { items, total: Number(count?.n ?? 0) };
}

/** One of the user's snapshots; another user's, or an unknown one, is 404. */
export async function getSnapshot(em: EntityManager, { userId, id }: { userId: string; id: string }): Promise<SnapshotRow> {
  const [row] = await em.execute<SnapshotRow[]>(`select ${SNAPSHOT_COLUMNS} from world_snapshots where id = ? and user_id = ?`, [
    id,
    userId,
  ]);
  if (!row) throw notFound('Snapshot');
  return row;
}

/** Deletes one of the user's snapshots (its rows cascade); worlds forked from it live on. */
export async function deleteSnapshot(em: EntityManager, { userId, id }: { userId: string; id: string }): Promise<SnapshotRow> {
  const [row] = await em.execute<SnapshotRow[]>(
    `delete from world_snapshots where id = ? and user_id = ? returning ${SNAPSHOT_COLUMNS}`,
    [id, userId],
  );
  if (!row) throw notFound('Snapshot');
  return row;
}
