/**
 * The SQL of the copy of a snapshot into a world (copy-world.ts) and of its kept credentials
 * (fork-credentials.ts) (docs/architecture.md, "The schema"): one named function per statement.
 */
import type { EntityManager } from '@sandbank/db';

export interface CopyTarget {
  snapshotId: string;
  userId: string;
  /** The copy's id prefix (24 hex digits: newIdPrefix()). */
  prefix: string;
  /** How far every instant moves, in milliseconds. */
  shiftMs: number;
}

/** The new id of the snapshot's row at `ord` (null for a null ord). */
const idOf = (ord: string) => `(k.prefix || lpad(to_hex(${ord}), 8, '0'))::uuid`;

const COPY_KEYS = `with k as (select ?::uuid as snapshot_id, ?::uuid as user_id, ?::text as prefix,
  ?::bigint * interval '1 millisecond' as shift)`;

const SQL = {
  accounts: `${COPY_KEYS}
    insert into accounts (id, user_id, name, balance, currency, status, created_at, closed_at, transaction_count, held_amount,
                          card_fx_margin)
    select ${idOf('s.ord')}, k.user_id, s.name, s.balance, s.currency, s.status, s.created_at + k.shift,
           s.closed_at + k.shift, s.transaction_count, s.held_amount, s.card_fx_margin
      from k join world_snapshot_accounts s on s.snapshot_id = k.snapshot_id`,
  // One statement: a reversal's original is checked (foreign key) at its end, wherever it lies in the copy.
  transactions: `${COPY_KEYS}
    insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, created_at,
                              status, posted_at, version, merchant, category, reversal_of, reversed_amount, settle_at,
                              expire_at, updated_at, request_fingerprint, posted_from_pending, original_amount,
                              original_currency, exchange_rate)
    select ${idOf('s.ord')}, ${idOf('s.account_ord')}, k.user_id,
           coalesce('sch_' || ${idOf('s.schedule_ord')}::text || substr(s.external_txn_id, 41), s.external_txn_id),
           s.amount, s.currency, s.date + k.shift, s.description, s.raw, s.created_at + k.shift,
           s.status, s.posted_at + k.shift, s.version, s.merchant, s.category, ${idOf('s.reversal_ord')},
           s.reversed_amount, s.settle_at + k.shift, s.expire_at + k.shift, now(), s.request_fingerprint, s.posted_from_pending,
           s.original_amount, s.original_currency, s.exchange_rate
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

const copyKeys = (target: CopyTarget) => [target.snapshotId, target.userId, target.prefix, Math.round(target.shiftMs)];

/** Sets `session_replication_role` for the rest of the transaction (see copySnapshotInto in copy-world.ts). */
export async function setReplicationRole(tx: EntityManager, role: 'replica' | 'origin'): Promise<void> {
  await tx.execute(`set local session_replication_role = ${role}`, [], 'run');
}

/** Copies the snapshot's accounts, transactions, schedules and schedule runs into the target world in one statement. */
export async function copySnapshotRows(tx: EntityManager, target: CopyTarget): Promise<void> {
  await tx.execute(COPY, copyKeys(target));
}

/** Whether the database role is a superuser. */
export async function selectIsSuperuser(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute<{ superuser: boolean }[]>(`select current_setting('is_superuser') = 'on' as superuser`);
  return row?.superuser === true;
}

/** Whether the database role may SET session_replication_role (throws before PostgreSQL 15). */
export async function selectMaySetReplicationRole(em: EntityManager): Promise<boolean> {
  const [granted] = await em.execute<{ ok: boolean }[]>(
    `select has_parameter_privilege('session_replication_role', 'SET') as ok`,
  );
  return granted?.ok === true;
}

export interface ForkedWebhookRow {
  id: string;
  url: string;
  events: string[];
  client_id: string;
  status: 'active' | 'disabled';
  secret: string;
}

export interface ForkedApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  key: string;
}

/** The i-th webhook's new secret, sealed. */
interface SealedSecret {
  i: number;
  ciphertext: string;
  key_id: string;
}

/** The i-th API key's new key, as stored: its visible prefix and its hash. */
interface FreshKey {
  i: number;
  prefix: string;
  hash: string;
}

/** A forked webhook as written: its sealed secret, not the secret. */
type WrittenWebhookRow = Omit<ForkedWebhookRow, 'secret'> & { secret_ciphertext: string };
/** A forked API key as written: its hash, not the key. */
type WrittenApiKeyRow = Omit<ForkedApiKeyRow, 'key'> & { key_hash: string };

/** The i-th kept row (1-based, in `ord` order) meets the i-th fresh secret. */
const numbered = (table: string) =>
  `(select s.*, row_number() over (order by s.ord) as i from ${table} s where s.snapshot_id = (select snapshot_id from k)) s`;

/** The snapshot's kept webhooks, made anew in the target world, each with the i-th sealed secret. */
export async function insertForkedWebhooks(
  tx: EntityManager,
  target: CopyTarget,
  sealed: readonly SealedSecret[],
): Promise<WrittenWebhookRow[]> {
  return tx.execute<WrittenWebhookRow[]>(
    `${COPY_KEYS}
       insert into webhooks (id, user_id, client_id, url, events, secret_ciphertext, secret_key_id, status, disabled_reason,
                             faults, created_at, updated_at)
       select ${idOf('s.ord')}, k.user_id, s.client_id, s.url, s.events, f.ciphertext, f.key_id, s.status, s.disabled_reason,
              s.faults, s.created_at + k.shift, s.created_at + k.shift
         from k, ${numbered('world_snapshot_webhooks')}
         join jsonb_to_recordset(?::jsonb) as f (i bigint, ciphertext text, key_id text) on f.i = s.i
       returning id, url, events, client_id, status, secret_ciphertext`,
    [...copyKeys(target), JSON.stringify(sealed)],
  );
}

/** The snapshot's kept API keys, made anew in the target world, each with the i-th fresh key's prefix and hash. */
export async function insertForkedApiKeys(
  tx: EntityManager,
  target: CopyTarget,
  fresh: readonly FreshKey[],
): Promise<WrittenApiKeyRow[]> {
  return tx.execute<WrittenApiKeyRow[]>(
    `${COPY_KEYS}
       insert into api_keys (id, user_id, name, prefix, key_hash, created_at, expires_at)
       select ${idOf('s.ord')}, k.user_id, s.name, f.prefix, f.hash, s.created_at + k.shift, s.expires_at + k.shift
         from k, ${numbered('world_snapshot_api_keys')}
         join jsonb_to_recordset(?::jsonb) as f (i bigint, prefix text, hash text) on f.i = s.i
       returning id, name, prefix, created_at, expires_at, key_hash`,
    [...copyKeys(target), JSON.stringify(fresh)],
  );
}
