import { Migration } from '@mikro-orm/migrations';

/**
 * Each user's world has a clock and schedules (docs/concepts/clock-and-schedules.md).
 *
 * - `users.clock_offset_ms`: the world's now is wall time plus this offset. It only grows (a CHECK
 *   keeps it non-negative; the advance only ever raises it with `greatest`).
 * - `schedules`: a recurring transaction. `next_run_at` is the next occurrence (null once ended)
 *   and `next_run_n` its 1-based index in the recurrence, so run n books with the externalTxnId
 *   `sch_<id>_<n>` and a repeated run changes nothing.
 * - `schedule_runs`: one row per occurrence that fired, with the transaction it booked or why it
 *   failed. Its primary key (schedule, n) makes a run happen once.
 * - The due indexes serve the clock: "what is due next in this world?".
 */
export class Migration20261123040000ClockAndSchedules extends Migration {
  override name = '20261123040000-clock-and-schedules';

  override up(): void {
    this.addSql(`
      alter table users
        add column clock_offset_ms bigint not null default 0,
        add constraint users_clock_offset_non_negative check (clock_offset_ms >= 0);

      create table schedules (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        account_id uuid not null references accounts (id) on delete cascade,
        amount bigint not null,
        description text not null,
        merchant text,
        category text,
        rrule text not null,
        timezone text not null,
        start_at timestamptz(3) not null,
        status text not null default 'posted',
        settle_after text,
        state text not null default 'active',
        next_run_at timestamptz(3),
        next_run_n integer not null default 1,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null default now(),
        constraint schedules_amount_bounds check (amount <> 0 and abs(amount) <= 1000000000000),
        constraint schedules_status_known check (status in ('pending', 'posted')),
        constraint schedules_state_known check (state in ('active', 'paused', 'ended')),
        constraint schedules_next_run_when_not_ended check ((state = 'ended') = (next_run_at is null)),
        constraint schedules_settle_only_pending check (status = 'pending' or settle_after is null),
        constraint schedules_run_n_positive check (next_run_n >= 1)
      );
      create index schedules_due_idx on schedules (user_id, next_run_at) where state = 'active';
      create index schedules_account_idx on schedules (account_id);

      create table schedule_runs (
        schedule_id uuid not null references schedules (id) on delete cascade,
        n integer not null,
        due_at timestamptz(3) not null,
        transaction_id uuid references transactions (id) on delete set null,
        failure_code text,
        failure_message text,
        created_at timestamptz(3) not null default now(),
        primary key (schedule_id, n),
        constraint schedule_runs_one_outcome check (transaction_id is null or failure_code is null)
      );

      create index transactions_user_due_idx on transactions (user_id, least(settle_at, expire_at))
        where status = 'pending' and (settle_at is not null or expire_at is not null);
    `);
  }

  override down(): void {
    this.addSql(`
      drop index transactions_user_due_idx;
      drop table schedule_runs;
      drop table schedules;
      alter table users drop column clock_offset_ms;
    `);
  }
}
