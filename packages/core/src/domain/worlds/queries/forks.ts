/**
 * The SQL of the copy of a snapshot into a world (copy-world.ts) and of its kept credentials
 * (fork-credentials.ts) (docs/architecture.md, "The schema"): one named function per statement.
 * The copies are set-wise SQL (one statement per table, ids derived in SQL); the rows they return
 * are typed from the generated tables (`Row`).
 */
import type { EntityManager, Row } from '@sandbank/db';

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

/** The UUID of `ord` under `prefix`, as `idOf` derives it in SQL. */
export const idUnder = (prefix: string, ord: number): string => {
  const hex = prefix + ord.toString(16).padStart(8, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

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
                              original_currency, exchange_rate, payment_id, counterpart_transaction_id)
    select ${idOf('s.ord')}, ${idOf('s.account_ord')}, k.user_id,
           coalesce('sch_' || ${idOf('s.schedule_ord')}::text || substr(s.external_txn_id, 41),
                    case when s.payment_ord is not null and s.external_txn_id ~ '^(pay|ret)_[0-9a-f-]{36}$'
                         then left(s.external_txn_id, 4) || ${idOf('s.payment_ord')}::text end,
                    s.external_txn_id),
           s.amount, s.currency, s.date + k.shift, s.description, s.raw, s.created_at + k.shift,
           s.status, s.posted_at + k.shift, s.version, s.merchant, s.category, ${idOf('s.reversal_ord')},
           s.reversed_amount, s.settle_at + k.shift, s.expire_at + k.shift, now(), s.request_fingerprint, s.posted_from_pending,
           s.original_amount, s.original_currency, s.exchange_rate, ${idOf('s.payment_ord')}, ${idOf('s.counterpart_ord')}
      from k join world_snapshot_transactions s on s.snapshot_id = k.snapshot_id`,
  schedules: `${COPY_KEYS}
    insert into schedules (id, user_id, account_id, amount, description, merchant, category, rrule, timezone, start_at,
                           status, settle_after, state, next_run_at, next_run_n, created_at, updated_at, payment)
    select ${idOf('s.ord')}, k.user_id, ${idOf('s.account_ord')}, s.amount, s.description,
           s.merchant, s.category, s.rrule, s.timezone, s.start_at + k.shift, s.status, s.settle_after, s.state,
           s.next_run_at + k.shift, s.next_run_n, s.created_at + k.shift, now(),
           -- A standing order to an own account pays that account's copy.
           case when s.payment->'to'->>'accountId' is null then s.payment
                else coalesce(jsonb_set(s.payment, '{to,accountId}',
                                        (select to_jsonb(${idOf('ta.ord')}::text) from world_snapshot_accounts ta
                                          where ta.snapshot_id = k.snapshot_id and ta.id = (s.payment->'to'->>'accountId')::uuid)),
                              s.payment) end
      from k join world_snapshot_schedules s on s.snapshot_id = k.snapshot_id`,
  scheduleRuns: `${COPY_KEYS}
    insert into schedule_runs (schedule_id, n, due_at, transaction_id, failure_code, failure_message, created_at)
    select ${idOf('s.schedule_ord')}, s.n, s.due_at + k.shift,
           ${idOf('s.transaction_ord')}, s.failure_code, s.failure_message, s.created_at + k.shift
      from k join world_snapshot_schedule_runs s on s.snapshot_id = k.snapshot_id`,
  paymentFiles: `${COPY_KEYS}
    insert into payment_files (id, user_id, message_id, message_name_id, file_created_at, initiating_party_name,
                               number_of_transactions, control_sum, blocks, created_at)
    select ${idOf('s.ord')}, k.user_id, s.message_id, s.message_name_id, s.file_created_at, s.initiating_party_name,
           s.number_of_transactions, s.control_sum, s.blocks, s.created_at + k.shift
      from k join world_snapshot_payment_files s on s.snapshot_id = k.snapshot_id`,
  // A payment waiting for its session (ACTC) takes the session given in `remaps` (a clearing session is an instant of
  // the calendar, not shifted), a keyed one its request's fingerprint with the copy's ids (copied-payments.ts).
  payments: `${COPY_KEYS}
    insert into payments (id, user_id, from_account_id, currency, to_account_id, counterparty_name, counterparty_iban, amount,
                          credit_amount, credit_currency, scheme, status, reason_code, reason_message, end_to_end_id,
                          description, requested_execution_date, due_at, accepted_at, settled_at, return_reason_code,
                          return_reason_message, returned_at, idempotency_key, request_fingerprint, payment_file_id,
                          payment_file_position, created_at, updated_at)
    select ${idOf('s.ord')}, k.user_id, ${idOf('s.from_account_ord')}, s.currency, ${idOf('s.to_account_ord')},
           s.counterparty_name, s.counterparty_iban, s.amount, s.credit_amount, s.credit_currency, s.scheme, s.status,
           s.reason_code, s.reason_message, s.end_to_end_id, s.description, s.requested_execution_date,
           coalesce(d.due_at, s.due_at + k.shift), s.accepted_at + k.shift, s.settled_at + k.shift, s.return_reason_code,
           s.return_reason_message, s.returned_at + k.shift, s.idempotency_key, coalesce(d.request_fingerprint, s.request_fingerprint),
           ${idOf('s.payment_file_ord')}, s.payment_file_position, s.created_at + k.shift, s.updated_at + k.shift
      from k join world_snapshot_payments s on s.snapshot_id = k.snapshot_id
      left join remaps d on d.ord = s.ord`,
};

/**
 * The four copies as ONE statement (data-modifying CTEs over the one `k`): one round trip and one
 * plan instead of four. Foreign keys are checked at the end of a statement, so the order of the copies
 * inside it does not matter.
 */
const COPY = `${COPY_KEYS},
  remaps as (select * from jsonb_to_recordset(?::jsonb) as d (ord integer, due_at timestamptz, request_fingerprint text)),
  copied_accounts as (${SQL.accounts.slice(COPY_KEYS.length)} returning 1),
  copied_transactions as (${SQL.transactions.slice(COPY_KEYS.length)} returning 1),
  copied_schedules as (${SQL.schedules.slice(COPY_KEYS.length)} returning 1),
  copied_runs as (${SQL.scheduleRuns.slice(COPY_KEYS.length)} returning 1),
  copied_files as (${SQL.paymentFiles.slice(COPY_KEYS.length)} returning 1),
  copied_payments as (${SQL.payments.slice(COPY_KEYS.length)} returning 1)
  select (select count(*) from copied_accounts) as accounts, (select count(*) from copied_transactions) as transactions,
         (select count(*) from copied_schedules) as schedules, (select count(*) from copied_runs) as runs,
         (select count(*) from copied_files) as payment_files, (select count(*) from copied_payments) as payments`;

const copyKeys = (target: CopyTarget) => [target.snapshotId, target.userId, target.prefix, Math.round(target.shiftMs)];

/** Sets `session_replication_role` for the rest of the transaction (see copySnapshotInto in copy-world.ts). */
export async function setReplicationRole(tx: EntityManager, role: 'replica' | 'origin'): Promise<void> {
  await tx.execute(`set local session_replication_role = ${role}`, [], 'run');
}

/** A snapshot's payment that a copy cannot take as it is: one waiting for its session (ACTC), or one kept under an Idempotency-Key. */
export type PaymentToRemapRow = Pick<
  Row<'world_snapshot_payments'>,
  | 'ord'
  | 'id'
  | 'from_account_ord'
  | 'to_account_ord'
  | 'counterparty_iban'
  | 'counterparty_name'
  | 'amount'
  | 'description'
  | 'requested_execution_date'
  | 'end_to_end_id'
  | 'scheme'
  | 'status'
  | 'accepted_at'
  | 'idempotency_key'
  | 'request_fingerprint'
> & {
  /** The accounts' ids in the snapshot's world. */
  from_account_id: string;
  to_account_id: string | null;
};

/** The snapshot's payments waiting for their session or kept under an Idempotency-Key. */
export function selectPaymentsToRemap(tx: EntityManager, snapshotId: string): Promise<PaymentToRemapRow[]> {
  return tx.execute<PaymentToRemapRow[]>(
    `select p.ord, p.id, p.from_account_ord, p.to_account_ord, fa.id as from_account_id, ta.id as to_account_id,
            p.counterparty_iban, p.counterparty_name, p.amount, p.description,
            to_char(p.requested_execution_date, 'YYYY-MM-DD') as requested_execution_date, p.end_to_end_id, p.scheme,
            p.status, p.accepted_at, p.idempotency_key, p.request_fingerprint
       from world_snapshot_payments p
       join world_snapshot_accounts fa on fa.snapshot_id = p.snapshot_id and fa.ord = p.from_account_ord
       left join world_snapshot_accounts ta on ta.snapshot_id = p.snapshot_id and ta.ord = p.to_account_ord
      where p.snapshot_id = ? and ((p.status = 'ACTC' and p.due_at is not null) or p.idempotency_key is not null)`,
    [snapshotId],
  );
}

/** What a copied payment takes instead of the snapshot's value (null: the snapshot's, shifted where an instant). */
export interface PaymentRemap {
  ord: number;
  due_at: string | null;
  request_fingerprint: string | null;
}

/**
 * Copies the snapshot's accounts, transactions, schedules, schedule runs, payment files and payments into the target
 * world in one statement; `remaps` are what some payments take instead (copied-payments.ts).
 */
export async function copySnapshotRows(tx: EntityManager, target: CopyTarget, remaps: readonly PaymentRemap[]): Promise<void> {
  await tx.execute(COPY, [...copyKeys(target), JSON.stringify(remaps)]);
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

export type ForkedWebhookRow = Pick<Row<'webhooks'>, 'id' | 'url' | 'events' | 'client_id'> & {
  status: 'active' | 'disabled';
  secret: string;
};

export type ForkedApiKeyRow = Pick<Row<'api_keys'>, 'id' | 'name' | 'prefix' | 'created_at' | 'expires_at'> & { key: string };

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
