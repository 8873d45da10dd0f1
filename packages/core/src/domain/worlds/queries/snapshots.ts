/**
 * The SQL of snapshots (docs/architecture.md, "The schema"): taking one (snapshots.ts), in its
 * REPEATABLE READ transaction; reading, restoring (restore-snapshot.ts) or deleting one. One named
 * function per statement. The copies are set-wise SQL, like the fork's (forks.ts); the rows they
 * return are typed from the generated tables (`Row`).
 */
import type { EntityManager, Row } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../../clock/clock.ts';

export type SnapshotRow = Pick<
  Row<'world_snapshots'>,
  'id' | 'name' | 'taken_at' | 'clock_offset_ms' | 'accounts' | 'transactions' | 'schedules' | 'webhooks' | 'api_keys'
> & {
  /** What it was asked to keep, in one order (`webhooks`, `apiKeys`): kept even when there were none. */
  include: SnapshotInclude[];
};

/** What a snapshot keeps beyond the world's money and clock, when asked. */
export type SnapshotInclude = 'webhooks' | 'apiKeys';

const SNAPSHOT_COLUMNS = 'id, name, taken_at, clock_offset_ms, accounts, transactions, schedules, webhooks, api_keys, include';

/** The SQL interval, in milliseconds, between the world's now (users row aliased `u`) and the snapshot's `taken_at` (aliased `s`). */
export const SHIFT_MS_SQL = `(extract(epoch from (date_trunc('milliseconds', sandbank_wall_now() + u.clock_offset_ms * interval '1 millisecond') - s.taken_at)) * 1000)::bigint`;

export async function snapshotExists(em: EntityManager, userId: string, snapshotId: string): Promise<boolean> {
  const rows = await em.execute('select 1 from world_snapshots where id = ? and user_id = ?', [snapshotId, userId]);
  return rows.length > 0;
}

/** The user's snapshot, KEY SHARE locked (it cannot be deleted) until the transaction ends; or undefined. */
export async function lockSnapshot(tx: EntityManager, userId: string, snapshotId: string): Promise<SnapshotRow | undefined> {
  const [row] = await tx.execute<SnapshotRow[]>(
    `select ${SNAPSHOT_COLUMNS} from world_snapshots where id = ? and user_id = ? for key share`,
    [snapshotId, userId],
  );
  return row;
}

/** How far a copy of the snapshot into the user's world moves its instants, in ms. */
export async function selectShiftMs(tx: EntityManager, userId: string, snapshotId: string): Promise<number> {
  const [row] = await tx.execute<{ shift_ms: string }[]>(
    `select ${SHIFT_MS_SQL} as shift_ms from users u, world_snapshots s where u.id = ? and s.id = ?`,
    [userId, snapshotId],
  );
  return Number(row?.shift_ms ?? 0);
}

/** The webhooks a snapshot keeps: not deleted, and not a Plaid item's (the item itself is not kept). */
const keptWebhooks = (w: string) => `${w}.deleted_at is null and ${w}.plaid_item_id is null`;
/** The API keys a snapshot keeps: not revoked (an expired one too, as its owner lists it). */
const keptApiKeys = (k: string) => `${k}.revoked_at is null`;

/** How many snapshots the user owns. */
export async function countSnapshots(em: EntityManager, userId: string): Promise<number> {
  const [count] = await em.execute<{ n: string }[]>('select count(*) as n from world_snapshots where user_id = ?', [userId]);
  return Number(count?.n ?? 0);
}

/** Makes the transaction REPEATABLE READ: every later statement reads the world as of the first one. Its first statement. */
export async function setRepeatableRead(tx: EntityManager): Promise<void> {
  await tx.execute('set transaction isolation level repeatable read', [], 'run');
}

/** The world's now and clock offset, and how many rows of each kind a snapshot of it would keep (text counts). */
export interface WorldToKeepRow {
  /** The world's now (timestamptz text). */
  now: string;
  offset_ms: Row<'users'>['clock_offset_ms'];
  a: string;
  t: string;
  s: string;
  w: string;
  k: string;
  /** Payment files and payments. */
  f: string;
  p: string;
}

export async function selectWorldToKeep(tx: EntityManager, userId: string): Promise<WorldToKeepRow | undefined> {
  const [world] = await tx.execute<WorldToKeepRow[]>(
    `select ${WORLD_NOW_SQL} as now, u.clock_offset_ms as offset_ms,
            (select count(*) from accounts where user_id = u.id) as a,
            (select count(*) from transactions where user_id = u.id) as t,
            (select count(*) from schedules where user_id = u.id) as s,
            (select count(*) from webhooks w where w.user_id = u.id and ${keptWebhooks('w')}) as w,
            (select count(*) from api_keys k where k.user_id = u.id and ${keptApiKeys('k')}) as k,
            (select count(*) from payment_files where user_id = u.id) as f,
            (select count(*) from payments where user_id = u.id) as p
       from users u where u.id = ?`,
    [userId],
  );
  return world;
}

export interface NewSnapshot {
  id: string;
  ownerId: string;
  name: string;
  takenAt: Date;
  offsetMs: string;
  accounts: number;
  transactions: number;
  schedules: number;
  webhooks: number;
  apiKeys: number;
  include: readonly SnapshotInclude[];
}

export async function insertSnapshot(tx: EntityManager, s: NewSnapshot): Promise<SnapshotRow | undefined> {
  const [row] = await tx.execute<SnapshotRow[]>(
    `insert into world_snapshots (id, user_id, name, taken_at, clock_offset_ms, accounts, transactions, schedules, webhooks,
                                  api_keys, include, created_at)
     values (?, ?, ?, ?::timestamptz, ?, ?, ?, ?, ?, ?, ?::text[], now()) returning ${SNAPSHOT_COLUMNS}`,
    [
      s.id,
      s.ownerId,
      s.name,
      s.takenAt.toISOString(),
      s.offsetMs,
      s.accounts,
      s.transactions,
      s.schedules,
      s.webhooks,
      s.apiKeys,
      `{${s.include.join(',')}}`,
    ],
  );
  return row;
}

/** The world's accounts into the snapshot, numbered 1… in id order. */
export async function keepAccounts(
  tx: EntityManager,
  { snapshotId, userId }: { snapshotId: string; userId: string },
): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_accounts (snapshot_id, ord, id, name, balance, currency, status, created_at, closed_at,
                                          transaction_count, held_amount, card_fx_margin)
     select ?, row_number() over (order by a.id), a.id, a.name, a.balance, a.currency, a.status, a.created_at, a.closed_at,
            a.transaction_count, a.held_amount, a.card_fx_margin
       from accounts a where a.user_id = ?`,
    [snapshotId, userId],
    'run',
  );
}

/** Which world's rows a snapshot keeps, and how many of its rows are numbered before them. */
interface KeptRows {
  snapshotId: string;
  userId: string;
  after: number;
}

/** The world's schedules into the snapshot, numbered after `after` rows, in id order. */
export async function keepSchedules(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_schedules (snapshot_id, ord, id, account_ord, account_id, amount, description, merchant,
                                           category, rrule, timezone, start_at, status, settle_after, state, next_run_at,
                                           next_run_n, created_at, payment)
     select ?, ?::int + row_number() over (order by s.id), s.id, sa.ord, s.account_id, s.amount, s.description, s.merchant,
            s.category, s.rrule, s.timezone, s.start_at, s.status, s.settle_after, s.state, s.next_run_at, s.next_run_n,
            s.created_at, s.payment
       from schedules s join world_snapshot_accounts sa on sa.snapshot_id = ? and sa.id = s.account_id
      where s.user_id = ?`,
    [snapshotId, after, snapshotId, userId],
    'run',
  );
}

/**
 * The world's transactions into the snapshot, numbered after `after` rows, with their account, schedule, reversal,
 * payment and counterpart (a transfer's other leg) ords. Payments are kept before (keepPayments).
 */
export async function keepTransactions(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
  await tx.execute(
    `with t as (select t.*, ?::int + row_number() over (order by t.id) as ord from transactions t where t.user_id = ?)
     insert into world_snapshot_transactions (snapshot_id, ord, id, account_ord, account_id, external_txn_id, schedule_ord,
                                              amount, currency, date, description, raw, status, posted_at, version, merchant,
                                              category, reversal_ord, reversal_of, reversed_amount, settle_at, expire_at,
                                              created_at, request_fingerprint, posted_from_pending, original_amount,
                                              original_currency, exchange_rate, payment_ord, counterpart_ord)
     select ?, t.ord, t.id, sa.ord, t.account_id, t.external_txn_id, ss.ord, t.amount, t.currency, t.date, t.description,
            t.raw, t.status, t.posted_at, t.version, t.merchant, t.category, r.ord, t.reversal_of, t.reversed_amount,
            t.settle_at, t.expire_at, t.created_at, t.request_fingerprint, t.posted_from_pending, t.original_amount,
            t.original_currency, t.exchange_rate, sp.ord, c.ord
       from t
       join world_snapshot_accounts sa on sa.snapshot_id = ? and sa.id = t.account_id
       left join world_snapshot_schedules ss
         on ss.snapshot_id = ? and t.external_txn_id like 'sch\\_%' and substr(t.external_txn_id, 41, 1) = '_'
        and ss.id::text = substr(t.external_txn_id, 5, 36)
       left join t r on r.id = t.reversal_of
       left join world_snapshot_payments sp on sp.snapshot_id = ? and sp.id = t.payment_id
       left join t c on c.id = t.counterpart_transaction_id`,
    [after, userId, snapshotId, snapshotId, snapshotId, snapshotId],
    'run',
  );
}

/** The world's payment files into the snapshot, numbered after `after` rows, in id order. */
export async function keepPaymentFiles(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_payment_files (snapshot_id, ord, id, message_id, message_name_id, file_created_at,
                                               initiating_party_name, number_of_transactions, control_sum, blocks, created_at)
     select ?, ?::int + row_number() over (order by f.id), f.id, f.message_id, f.message_name_id, f.file_created_at,
            f.initiating_party_name, f.number_of_transactions, f.control_sum, f.blocks, f.created_at
       from payment_files f where f.user_id = ?`,
    [snapshotId, after, userId],
    'run',
  );
}

/** The world's payments into the snapshot, numbered after `after` rows, in id order, with their accounts' and file's ords. */
export async function keepPayments(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_payments (snapshot_id, ord, id, from_account_ord, currency, to_account_ord, counterparty_name,
                                          counterparty_iban, amount, credit_amount, credit_currency, scheme, status, reason_code,
                                          reason_message, end_to_end_id, description, requested_execution_date, due_at,
                                          accepted_at, settled_at, return_reason_code, return_reason_message, returned_at,
                                          idempotency_key, request_fingerprint, payment_file_ord, payment_file_position,
                                          created_at, updated_at)
     select ?, ?::int + row_number() over (order by p.id), p.id, fa.ord, p.currency, ta.ord, p.counterparty_name,
            p.counterparty_iban, p.amount, p.credit_amount, p.credit_currency, p.scheme, p.status, p.reason_code,
            p.reason_message, p.end_to_end_id, p.description, p.requested_execution_date, p.due_at, p.accepted_at,
            p.settled_at, p.return_reason_code, p.return_reason_message, p.returned_at, p.idempotency_key,
            p.request_fingerprint, sf.ord, p.payment_file_position, p.created_at, p.updated_at
       from payments p
       join world_snapshot_accounts fa on fa.snapshot_id = ? and fa.id = p.from_account_id
       left join world_snapshot_accounts ta on ta.snapshot_id = ? and ta.id = p.to_account_id
       left join world_snapshot_payment_files sf on sf.snapshot_id = ? and sf.id = p.payment_file_id
      where p.user_id = ?`,
    [snapshotId, after, snapshotId, snapshotId, snapshotId, userId],
    'run',
  );
}

/** The runs of the snapshot's schedules, with their schedule's and transaction's ords. */
export async function keepScheduleRuns(tx: EntityManager, snapshotId: string): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_schedule_runs (snapshot_id, schedule_ord, schedule_id, n, due_at, transaction_ord,
                                               transaction_id, failure_code, failure_message, created_at)
     select ?, ss.ord, r.schedule_id, r.n, r.due_at, st.ord, st.id, r.failure_code, r.failure_message, r.created_at
       from schedule_runs r
       join world_snapshot_schedules ss on ss.snapshot_id = ? and ss.id = r.schedule_id
       left join world_snapshot_transactions st on st.snapshot_id = ? and st.id = r.transaction_id`,
    [snapshotId, snapshotId, snapshotId],
    'run',
  );
}

/** The world's kept webhooks (subscriptions only) into the snapshot, numbered after `after` rows. */
export async function keepWebhooks(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_webhooks (snapshot_id, ord, id, client_id, url, events, status, disabled_reason, faults,
                                            created_at)
       select ?, ?::int + row_number() over (order by w.id), w.id, w.client_id, w.url, w.events, w.status, w.disabled_reason,
              w.faults, w.created_at
         from webhooks w where w.user_id = ? and ${keptWebhooks('w')}`,
    [snapshotId, after, userId],
    'run',
  );
}

/** The world's kept API keys (names and dates only) into the snapshot, numbered after `after` rows. */
export async function keepApiKeys(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
  await tx.execute(
    `insert into world_snapshot_api_keys (snapshot_id, ord, id, name, created_at, expires_at)
       select ?, ?::int + row_number() over (order by k.id), k.id, k.name, k.created_at, k.expires_at
         from api_keys k where k.user_id = ? and ${keptApiKeys('k')}`,
    [snapshotId, after, userId],
    'run',
  );
}

/** A page of the user's snapshots, newest first. */
export async function selectSnapshots(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<SnapshotRow[]> {
  return em.execute<SnapshotRow[]>(
    `select ${SNAPSHOT_COLUMNS} from world_snapshots where user_id = ? order by created_at desc, id desc limit ? offset ?`,
    [userId, limit, offset],
  );
}

/** One of the user's snapshots, or undefined. */
export async function selectSnapshot(em: EntityManager, userId: string, id: string): Promise<SnapshotRow | undefined> {
  const [row] = await em.execute<SnapshotRow[]>(`select ${SNAPSHOT_COLUMNS} from world_snapshots where id = ? and user_id = ?`, [
    id,
    userId,
  ]);
  return row;
}

/** Deletes one of the user's snapshots (its rows cascade); the row it was, or undefined. */
export async function deleteSnapshotRow(em: EntityManager, userId: string, id: string): Promise<SnapshotRow | undefined> {
  const [row] = await em.execute<SnapshotRow[]>(
    `delete from world_snapshots where id = ? and user_id = ? returning ${SNAPSHOT_COLUMNS}`,
    [id, userId],
  );
  return row;
}
