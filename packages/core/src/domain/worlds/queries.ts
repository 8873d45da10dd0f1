/**
 * The SQL of worlds and their snapshots (docs/architecture.md, "The schema"): typed rows and one
 * named function per statement.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export interface SnapshotRow {
  id: string;
  name: string;
  taken_at: Date | string;
  clock_offset_ms: string | number;
  accounts: number;
  transactions: number;
  schedules: number;
  webhooks: number;
  api_keys: number;
  /** What it was asked to keep, in one order (`webhooks`, `apiKeys`): kept even when there were none. */
  include: SnapshotInclude[];
}

/** What a snapshot keeps beyond the world's money and clock, when asked. */
export type SnapshotInclude = 'webhooks' | 'apiKeys';

const SNAPSHOT_COLUMNS = 'id, name, taken_at, clock_offset_ms, accounts, transactions, schedules, webhooks, api_keys, include';

/** The SQL interval, in milliseconds, between the world's now (users row aliased `u`) and the snapshot's `taken_at` (aliased `s`). */
const SHIFT_MS_SQL = `(extract(epoch from (date_trunc('milliseconds', sandbank_wall_now() + u.clock_offset_ms * interval '1 millisecond') - s.taken_at)) * 1000)::bigint`;

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

/** Removes the rate-limit buckets of the worlds' API keys (keyed `…:<keyId>`). */
export async function deleteApiKeyRateLimits(em: EntityManager, userIds: string[]): Promise<void> {
  await em.execute(
    `delete from rate_limits where right(key, 36) in
       (select id::text from api_keys where user_id in (select value::uuid from jsonb_array_elements_text(?::jsonb)))`,
    [JSON.stringify(userIds)],
    'run',
  );
}

/** Deletes the user rows (every table of a world cascades from them); how many went. */
export async function deleteUsers(em: EntityManager, userIds: string[]): Promise<number> {
  const removed = await em.execute<{ id: string }[]>(
    'delete from users where id in (select value::uuid from jsonb_array_elements_text(?::jsonb)) returning id',
    [JSON.stringify(userIds)],
  );
  return removed.length;
}

/** Up to `batch` worlds whose TTL has passed, locked (FOR UPDATE SKIP LOCKED: several sweepers share the work). */
export async function lockExpiredWorlds(tx: EntityManager, batch: number): Promise<string[]> {
  const expired = await tx.execute<{ id: string }[]>(
    `select id from worlds where expires_at <= sandbank_wall_now() order by expires_at limit ? for update skip locked`,
    [batch],
  );
  return expired.map((row) => row.id);
}

// The copy of a snapshot into a world (copy-world.ts) and of its kept credentials (fork-credentials.ts).

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

// Snapshots (snapshots.ts): taking one, in its REPEATABLE READ transaction, and reading or deleting one.

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
  now: Date;
  offset_ms: string;
  a: string;
  t: string;
  s: string;
  w: string;
  k: string;
}

export async function selectWorldToKeep(tx: EntityManager, userId: string): Promise<WorldToKeepRow | undefined> {
  const [world] = await tx.execute<WorldToKeepRow[]>(
    `select ${WORLD_NOW_SQL} as now, u.clock_offset_ms as offset_ms,
            (select count(*) from accounts where user_id = u.id) as a,
            (select count(*) from transactions where user_id = u.id) as t,
            (select count(*) from schedules where user_id = u.id) as s,
            (select count(*) from webhooks w where w.user_id = u.id and ${keptWebhooks('w')}) as w,
            (select count(*) from api_keys k where k.user_id = u.id and ${keptApiKeys('k')}) as k
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
                                          transaction_count, held_amount)
     select ?, row_number() over (order by a.id), a.id, a.name, a.balance, a.currency, a.status, a.created_at, a.closed_at,
            a.transaction_count, a.held_amount
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
                                           next_run_n, created_at)
     select ?, ?::int + row_number() over (order by s.id), s.id, sa.ord, s.account_id, s.amount, s.description, s.merchant,
            s.category, s.rrule, s.timezone, s.start_at, s.status, s.settle_after, s.state, s.next_run_at, s.next_run_n,
            s.created_at
       from schedules s join world_snapshot_accounts sa on sa.snapshot_id = ? and sa.id = s.account_id
      where s.user_id = ?`,
    [snapshotId, after, snapshotId, userId],
    'run',
  );
}

/** The world's transactions into the snapshot, numbered after `after` rows, with their account, schedule and reversal ords. */
export async function keepTransactions(tx: EntityManager, { snapshotId, userId, after }: KeptRows): Promise<void> {
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
    [after, userId, snapshotId, snapshotId, snapshotId],
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

// Child worlds (worlds.ts).

export interface WorldRow {
  id: string;
  email: string;
  parent_id: string;
  source: 'snapshot' | 'scenario';
  snapshot_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

/** A child world's own API key, as written (its key is only in the creation's answer). */
export interface WorldApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date | string;
}

const WORLD_COLUMNS = `w.id, u.email, w.parent_id, w.source, w.snapshot_id, w.created_at, w.expires_at`;

/** The fork's commit does not wait for its WAL flush (see createWorld in worlds.ts). */
export async function setSynchronousCommitOff(tx: EntityManager): Promise<void> {
  await tx.execute('set local synchronous_commit = off', [], 'run');
}

/**
 * The child's user row, with the snapshot's clock offset, in the statement that KEY SHARE locks the
 * parent's snapshot; the shift of the copy and the kept credentials' counts. Undefined: no such snapshot.
 */
export async function insertForkedUser(
  tx: EntityManager,
  p: { snapshotId: string; parentId: string; id: string; email: string; passwordHash: string },
): Promise<{ shift_ms: string; webhooks: number; api_keys: number } | undefined> {
  const [forked] = await tx.execute<{ shift_ms: string; webhooks: number; api_keys: number }[]>(
    `with s as (select id, taken_at, clock_offset_ms, webhooks, api_keys from world_snapshots
                     where id = ? and user_id = ? for key share),
              u as (insert into users (id, email, password_hash, clock_offset_ms)
                    select ?, ?, ?, s.clock_offset_ms from s returning id, clock_offset_ms)
         select ${SHIFT_MS_SQL} as shift_ms, s.webhooks, s.api_keys from u, s`,
    [p.snapshotId, p.parentId, p.id, p.email, p.passwordHash],
  );
  return forked;
}

/** The user row of a child world built from a scenario. */
export async function insertWorldUser(tx: EntityManager, p: { id: string; email: string; passwordHash: string }): Promise<void> {
  await tx.execute('insert into users (id, email, password_hash) values (?, ?, ?)', [p.id, p.email, p.passwordHash], 'run');
}

/** Whether the user is itself a child world, and how many live child worlds it has. */
export async function selectWorldCount(em: EntityManager, parentId: string): Promise<{ child: boolean; live: number }> {
  const [row] = await em.execute<{ child: boolean; n: string }[]>(
    `select exists (select 1 from worlds where id = ?) as child,
            (select count(*) from worlds where parent_id = ? and expires_at > sandbank_wall_now()) as n`,
    [parentId, parentId],
  );
  return { child: row?.child === true, live: Number(row?.n ?? 0) };
}

/** The child world's API key, created at the world's now; undefined if its user row is missing. */
export async function insertWorldApiKey(
  tx: EntityManager,
  p: { id: string; prefix: string; keyHash: string; userId: string },
): Promise<WorldApiKeyRow | undefined> {
  const [apiKey] = await tx.execute<WorldApiKeyRow[]>(
    `insert into api_keys (id, user_id, name, prefix, key_hash, created_at)
     select ?, u.id, 'World', ?, ?, ${WORLD_NOW_SQL} from users u where u.id = ?
     returning id, name, prefix, created_at`,
    [p.id, p.prefix, p.keyHash, p.userId],
  );
  return apiKey;
}

/** The worlds row of a child, expiring `ttlMs` from the wall clock's now. */
export async function insertWorld(
  tx: EntityManager,
  { id, parentId, snapshotId, ttlMs }: { id: string; parentId: string; snapshotId: string | null; ttlMs: number },
): Promise<WorldRow | undefined> {
  const [world] = await tx.execute<WorldRow[]>(
    `with w as (insert into worlds (id, parent_id, snapshot_id, source, expires_at, created_at)
                values (?, ?, ?, ?, sandbank_wall_now() + ? * interval '1 millisecond', sandbank_wall_now())
                returning *)
     select ${WORLD_COLUMNS} from w join users u on u.id = w.id`,
    [id, parentId, snapshotId, snapshotId ? 'snapshot' : 'scenario', ttlMs],
  );
  return world;
}

/** A page of the parent's live child worlds, newest first. */
export async function selectWorlds(
  em: EntityManager,
  { parentId, limit, offset }: { parentId: string; limit: number; offset: number },
): Promise<WorldRow[]> {
  return em.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id
      where w.parent_id = ? and w.expires_at > sandbank_wall_now()
      order by w.created_at desc, w.id desc limit ? offset ?`,
    [parentId, limit, offset],
  );
}

/** How many live child worlds the parent has. */
export async function countLiveWorlds(em: EntityManager, parentId: string): Promise<number> {
  const [count] = await em.execute<{ n: string }[]>(
    'select count(*) as n from worlds where parent_id = ? and expires_at > sandbank_wall_now()',
    [parentId],
  );
  return Number(count?.n ?? 0);
}

/** One of the parent's live child worlds, or undefined. */
export async function selectLiveWorld(
  em: EntityManager,
  { parentId, id }: { parentId: string; id: string },
): Promise<WorldRow | undefined> {
  const [row] = await em.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id
      where w.id = ? and w.parent_id = ? and w.expires_at > sandbank_wall_now()`,
    [id, parentId],
  );
  return row;
}

/** One of the parent's child worlds (live or not), its worlds row locked FOR UPDATE; or undefined. */
export async function lockWorld(
  tx: EntityManager,
  { parentId, id }: { parentId: string; id: string },
): Promise<WorldRow | undefined> {
  const [row] = await tx.execute<WorldRow[]>(
    `select ${WORLD_COLUMNS} from worlds w join users u on u.id = w.id where w.id = ? and w.parent_id = ? for update of w`,
    [id, parentId],
  );
  return row;
}
