import { Migration } from '@mikro-orm/migrations';

/**
 * The GoCardless Bank Account Data face (docs/faces/gocardless.md). An end-user agreement says how far back
 * (`max_historical_days`) and how long (`access_valid_for_days`, counted from its acceptance on the
 * world's clock) an app may read, and what (`access_scope`). A requisition asks the world's owner to
 * link accounts under an agreement; once linked (`LN`), each linked account gets a face id of its own
 * (`gocardless_accounts.id`), as GoCardless gives each requisition's accounts new ids. `EX` is not
 * stored: a linked requisition whose agreement ran out on the world's clock reads as expired.
 * `gocardless_daily_access` counts the reads of a linked account per scope and Warsaw day, for the
 * institutions that opt in to a daily access limit.
 */
export class Migration20261125030000Gocardless extends Migration {
  override name = '20261125030000-gocardless';

  override up(): void {
    this.addSql(`
      create table gocardless_agreements (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        institution_id text not null,
        max_historical_days integer not null,
        access_valid_for_days integer not null,
        access_scope text[] not null,
        created_at timestamptz(3) not null,
        accepted_at timestamptz(3),
        constraint gocardless_agreements_days check (max_historical_days between 1 and 730 and access_valid_for_days between 1 and 180),
        constraint gocardless_agreements_scope check (access_scope <@ array['balances', 'details', 'transactions'] and cardinality(access_scope) > 0)
      );
      create index gocardless_agreements_user_idx on gocardless_agreements (user_id);

      create table gocardless_requisitions (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        agreement_id uuid not null references gocardless_agreements (id) on delete cascade,
        institution_id text not null,
        redirect text not null,
        reference text not null,
        user_language text not null,
        status text not null default 'CR',
        created_at timestamptz(3) not null,
        decided_at timestamptz(3),
        constraint gocardless_requisitions_status check (status in ('CR', 'LN', 'RJ')),
        constraint gocardless_requisitions_reference unique (user_id, reference)
      );
      create index gocardless_requisitions_user_idx on gocardless_requisitions (user_id);

      create table gocardless_accounts (
        id uuid primary key,
        requisition_id uuid not null references gocardless_requisitions (id) on delete cascade,
        account_id uuid not null references accounts (id) on delete cascade,
        user_id uuid not null references users (id) on delete cascade,
        position integer not null,
        created_at timestamptz(3) not null,
        last_accessed timestamptz(3),
        constraint gocardless_accounts_once unique (requisition_id, account_id)
      );
      create index gocardless_accounts_account_idx on gocardless_accounts (account_id);

      create table gocardless_daily_access (
        account_id uuid not null references gocardless_accounts (id) on delete cascade,
        scope text not null,
        day date not null,
        count integer not null,
        primary key (account_id, scope, day)
      );
    `);
  }

  override down(): void {
    this.addSql(
      'drop table gocardless_daily_access; drop table gocardless_accounts; drop table gocardless_requisitions; drop table gocardless_agreements;',
    );
  }
}
