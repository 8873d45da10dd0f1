import { Migration } from '@mikro-orm/migrations';

/**
 * Disposable worlds (docs/concepts/disposable-worlds.md).
 *
 * A snapshot keeps a world as it was: its accounts, transactions (every lifecycle state, holds
 * included), schedules and their runs, and the clock (`taken_at`, the world's now when it was
 * taken, and the offset). Its rows live in `world_snapshot_*` tables of their own, never in the
 * live ones: nothing fires in a snapshot, no face or partner key reads it. Each row keeps its
 * original id (a restore puts the world back with the same ids) and `ord`, its place in the
 * snapshot (one numbering across the snapshot's tables, in id order): a fork derives each new id
 * from its own prefix and `ord` in the INSERT … SELECT itself, so copying needs no mapping table,
 * and references (`account_ord`, `reversal_ord`, …) map by the same expression.
 *
 * A child world is a user (no password) with a `worlds` row naming its parent and its expiry
 * (wall time). Removing the user removes everything of the world (every table cascades from
 * `users`); `worlds` cascades with it, and with its parent.
 *
 * Two indexes make that cascade a lookup per row instead of a scan of a whole table per row: a
 * removed transaction sets its schedule run's `transaction_id` to null, a removed event deletes its
 * deliveries (until now neither column led an index, so each removed row scanned every world's runs
 * or deliveries).
 */
export class Migration20261126010000Worlds extends Migration {
  override name = '20261126010000-worlds';

  override up(): void {
    this.addSql(`
      create table world_snapshots (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        name text not null,
        taken_at timestamptz(3) not null,
        clock_offset_ms bigint not null,
        accounts integer not null,
        transactions integer not null,
        schedules integer not null,
        created_at timestamptz(3) not null
      );
      create index world_snapshots_user_idx on world_snapshots (user_id, created_at desc, id desc);

      create table world_snapshot_accounts (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        ord integer not null,
        id uuid not null,
        name text not null,
        balance bigint not null,
        currency text not null,
        status text not null,
        created_at timestamptz(3) not null,
        closed_at timestamptz(3),
        transaction_count bigint not null,
        held_amount bigint not null,
        primary key (snapshot_id, ord)
      );

      create table world_snapshot_transactions (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        ord integer not null,
        id uuid not null,
        account_ord integer not null,
        account_id uuid not null,
        external_txn_id text not null,
        schedule_ord integer,
        amount bigint not null,
        currency text not null,
        date timestamptz(3) not null,
        description text not null,
        raw jsonb not null,
        status text not null,
        posted_at timestamptz(3),
        version integer not null,
        merchant text,
        category text,
        reversal_ord integer,
        reversal_of uuid,
        reversed_amount bigint not null,
        settle_at timestamptz(3),
        expire_at timestamptz(3),
        created_at timestamptz(3) not null,
        request_fingerprint text,
        posted_from_pending boolean not null,
        primary key (snapshot_id, ord)
      );

      create table world_snapshot_schedules (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        ord integer not null,
        id uuid not null,
        account_ord integer not null,
        account_id uuid not null,
        amount bigint not null,
        description text not null,
        merchant text,
        category text,
        rrule text not null,
        timezone text not null,
        start_at timestamptz(3) not null,
        status text not null,
        settle_after text,
        state text not null,
        next_run_at timestamptz(3),
        next_run_n integer not null,
        created_at timestamptz(3) not null,
        primary key (snapshot_id, ord)
      );

      create table world_snapshot_schedule_runs (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        schedule_ord integer not null,
        schedule_id uuid not null,
        n integer not null,
        due_at timestamptz(3) not null,
        transaction_ord integer,
        transaction_id uuid,
        failure_code text,
        failure_message text,
        created_at timestamptz(3) not null,
        primary key (snapshot_id, schedule_ord, n)
      );

      create table worlds (
        id uuid primary key references users (id) on delete cascade,
        parent_id uuid not null references users (id) on delete cascade,
        snapshot_id uuid references world_snapshots (id) on delete set null,
        source text not null,
        expires_at timestamptz(3) not null,
        created_at timestamptz(3) not null default now(),
        constraint worlds_source_known check (source in ('snapshot', 'scenario')),
        constraint worlds_not_own_parent check (id <> parent_id)
      );
      create index worlds_parent_idx on worlds (parent_id, created_at desc, id desc);
      create index worlds_expiry_idx on worlds (expires_at);
      create index worlds_snapshot_idx on worlds (snapshot_id) where snapshot_id is not null;

      create index schedule_runs_transaction_idx on schedule_runs (transaction_id) where transaction_id is not null;
      create index webhook_deliveries_event_idx on webhook_deliveries (event_id);
    `);
  }

  override down(): void {
    this.addSql(`
      drop index if exists webhook_deliveries_event_idx;
      drop index if exists schedule_runs_transaction_idx;
      drop table if exists worlds;
      drop table if exists world_snapshot_schedule_runs;
      drop table if exists world_snapshot_schedules;
      drop table if exists world_snapshot_transactions;
      drop table if exists world_snapshot_accounts;
      drop table if exists world_snapshots;
    `);
  }
}
