/**
 * The SQL of taking a snapshot (snapshots.ts, in its REPEATABLE READ transaction): the set-wise copies
 * of the world's rows into the snapshot's tables, one statement per table, like the fork's copies
 * back (forks.ts). The snapshot's own row — reading, locking, counting, deleting it — is written with
 * Kysely in snapshot-rows.ts.
 */
import type { EntityManager } from '@sandbank/db';

/** The SQL interval, in milliseconds, between the world's now (users row aliased `u`) and the snapshot's `taken_at` (aliased `s`). */
export const SHIFT_MS_SQL = `(extract(epoch from (date_trunc('milliseconds', sandbank_wall_now() + u.clock_offset_ms * interval '1 millisecond') - s.taken_at)) * 1000)::bigint`;

/** The webhooks a snapshot keeps: not deleted, and not a Plaid item's (the item itself is not kept). */
const keptWebhooks = (w: string) => `${w}.deleted_at is null and ${w}.plaid_item_id is null`;
/** The API keys a snapshot keeps: not revoked (an expired one too, as its owner lists it). */
const keptApiKeys = (k: string) => `${k}.revoked_at is null`;

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
