/**
 * Copying a snapshot into a world, set-wise inside PostgreSQL: one INSERT … SELECT per table
 * (accounts, transactions, schedules, schedule runs), never row by row.
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
 * settles in two days, and a schedule's next run is as far ahead as it was.
 */
import type { EntityManager } from '@sandbank/db';
import { uuidv7 } from '../../lib/ids.ts';

export interface CopyTarget {
  snapshotId: string;
  userId: string;
  /** The copy's id prefix (24 hex digits: newIdPrefix()). */
  prefix: string;
  /** How far every instant moves, in milliseconds. */
  shiftMs: number;
}

/** The new id of the snapshot's row at `ord` (null for a null ord). */
export const idOf = (ord: string) => `(k.prefix || lpad(to_hex(${ord}), 8, '0'))::uuid`;

export const COPY_KEYS = `with k as (select ?::uuid as snapshot_id, ?::uuid as user_id, ?::text as prefix,
  ?::bigint * interval '1 millisecond' as shift)`;

const SQL = {
  accounts: `${COPY_KEYS}
    insert into accounts (id, user_id, name, balance, currency, status, created_at, closed_at, transaction_count, held_amount)
    select ${idOf('s.ord')}, k.user_id, s.name, s.balance, s.currency, s.status, s.created_at + k.shift,
           s.closed_at + k.shift, s.transaction_count, s.held_amount
      from k join world_snapshot_accounts s on s.snapshot_id = k.snapshot_id`,
  // One statement: a reversal's original is checked (foreign key) at its end, wherever it lies in the copy.
  transactions: `${COPY_KEYS}
    insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, created_at,
                              status, posted_at, version, merchant, category, reversal_of, reversed_amount, settle_at,
                              expire_at, updated_at, request_fingerprint, posted_from_pending)
    select ${idOf('s.ord')}, ${idOf('s.account_ord')}, k.user_id,
           coalesce('sch_' || ${idOf('s.schedule_ord')}::text || substr(s.external_txn_id, 41), s.external_txn_id),
           s.amount, s.currency, s.date + k.shift, s.description, s.raw, s.created_at + k.shift,
           s.status, s.posted_at + k.shift, s.version, s.merchant, s.category, ${idOf('s.reversal_ord')},
           s.reversed_amount, s.settle_at + k.shift, s.expire_at + k.shift, now(), s.request_fingerprint, s.posted_from_pending
      from k join world_snapshot_transactions s on s.snapshot_id = k.snapshot_id`,
  schedules: `${COPY_KEYS}
    insert into schedules (id, user_id, account_id, amount, description, merchant, category, rrule, timezone, start_at,
                           status, settle_after, state, next_run_at, next_run_n, created_at, updated_at)
    select ${idOf('s.ord')}, k.user_id, ${idOf('s.account_ord')}, s.amount, s.description,
           s.merchant, s.category, s.rrule, s.timezone, s.start_at + k.shift, s.status, s.settle_after, s.state,
           s.next_run_at + k.shift, s.next_run_n, s.created_at + k.shift, now()
      from k join world_snapshot_schedules s on s.snapshot_id = k.snapshot_id`,
  scheduleRuns: `${COPY_KEYS}
    insert into schedule_runs (schedule_id, n, due_at, transaction_id, failure_code, failure_message, created_at)
    select ${idOf('s.schedule_ord')}, s.n, s.due_at + k.shift,
           ${idOf('s.transaction_ord')}, s.failure_code, s.failure_message, s.created_at + k.shift
      from k join world_snapshot_schedule_runs s on s.snapshot_id = k.snapshot_id`,
};

/**
 * The four copies as ONE statement (data-modifying CTEs over the one `k`): one round trip and one
 * plan instead of four. Foreign keys are checked at the end of a statement, so the order of the copies
 * inside it does not matter.
 */
const COPY = `${COPY_KEYS},
  copied_accounts as (${SQL.accounts.slice(COPY_KEYS.length)} returning 1),
  copied_transactions as (${SQL.transactions.slice(COPY_KEYS.length)} returning 1),
  copied_schedules as (${SQL.schedules.slice(COPY_KEYS.length)} returning 1),
  copied_runs as (${SQL.scheduleRuns.slice(COPY_KEYS.length)} returning 1)
  select (select count(*) from copied_accounts) as accounts, (select count(*) from copied_transactions) as transactions,
         (select count(*) from copied_schedules) as schedules, (select count(*) from copied_runs) as runs`;

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
  const params = [target.snapshotId, target.userId, target.prefix, Math.round(target.shiftMs)];
  if (skipForeignKeyChecks) await tx.execute('set local session_replication_role = replica', [], 'run');
  await tx.execute(COPY, params);
  if (skipForeignKeyChecks) await tx.execute('set local session_replication_role = origin', [], 'run');
}

let skipAllowed: Promise<boolean> | undefined;

/**
 * Whether this database role may set `session_replication_role` (a superuser, as the embedded and
 * Docker setups connect, or a role granted `SET` on it: PostgreSQL 15+). Asked once per process; a
 * role that may not copies with the foreign-key checks on (correct, about twice as slow).
 */
export function canSkipForeignKeyChecks(em: EntityManager): Promise<boolean> {
  skipAllowed ??= (async () => {
    const [row] = await em.execute<{ superuser: boolean }[]>(`select current_setting('is_superuser') = 'on' as superuser`);
    if (row?.superuser) return true;
    try {
      const [granted] = await em.execute<{ ok: boolean }[]>(
        `select has_parameter_privilege('session_replication_role', 'SET') as ok`,
      );
      return granted?.ok === true;
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

/** The UUID of `ord` under `prefix`, as the SQL derives it. */
export const idUnder = (prefix: string, ord: number): string => {
  const hex = prefix + ord.toString(16).padStart(8, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
