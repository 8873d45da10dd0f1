import { Migration } from '@mikro-orm/migrations';

/**
 * The transaction lifecycle (docs/concepts/lifecycle.md): pending → posted | voided, reversals, a version per change,
 * and the hold on an account's pending debits. The per-row rules are CHECKs, so no statement can
 * store an impossible transaction; the per-account sums (balance = Σ posted, held = Σ pending
 * debits) are kept by the single statements that change them, with `balance − held ≥ 0` and the
 * bounds as the database's last word.
 *
 * `transaction_count` now counts the rows the default history shows (pending and posted): a void
 * takes one off, so an unfiltered page still needs no count(*).
 */
export class Migration20261123020000TransactionLifecycle extends Migration {
  override name = '20261123020000-transaction-lifecycle';

  override up(): void {
    this.addSql(`
      alter table transactions
        add column status text not null default 'posted',
        add column posted_at timestamptz(3),
        add column version integer not null default 1,
        add column merchant text,
        add column category text,
        add column reversal_of uuid references transactions (id),
        add column reversed_amount bigint not null default 0,
        add column settle_at timestamptz(3),
        add column expire_at timestamptz(3),
        add column updated_at timestamptz(3) not null default now();
      update transactions set posted_at = date;
      alter table transactions
        add constraint transactions_status_known check (status in ('pending', 'posted', 'voided')),
        add constraint transactions_posted_at_matches check ((status = 'posted') = (posted_at is not null)),
        add constraint transactions_version_positive check (version >= 1),
        add constraint transactions_category_known check (category in (
          'groceries', 'transport', 'fuel', 'utilities', 'telecom', 'subscriptions', 'restaurants', 'health',
          'shopping', 'housing', 'salary', 'transfer', 'cash', 'entertainment', 'education', 'other')),
        add constraint transactions_reversed_within_amount check (reversed_amount between 0 and abs(amount)),
        add constraint transactions_reversal_posted check (reversal_of is null or status = 'posted'),
        add constraint transactions_due_only_pending check (status = 'pending' or (settle_at is null and expire_at is null));
      create index transactions_settle_due_idx on transactions (settle_at) where status = 'pending' and settle_at is not null;
      create index transactions_expire_due_idx on transactions (expire_at) where status = 'pending' and expire_at is not null;
      create index transactions_reversal_of_idx on transactions (reversal_of) where reversal_of is not null;

      alter table accounts
        add column held_amount bigint not null default 0,
        add constraint accounts_held_non_negative check (held_amount >= 0),
        add constraint accounts_available_non_negative check (balance - held_amount >= 0);
    `);
  }

  override down(): void {
    this.addSql(`
      alter table accounts drop column held_amount;
      drop index transactions_settle_due_idx;
      drop index transactions_expire_due_idx;
      drop index transactions_reversal_of_idx;
      alter table transactions
        drop column status, drop column posted_at, drop column version, drop column merchant, drop column category,
        drop column reversal_of, drop column reversed_amount, drop column settle_at, drop column expire_at, drop column updated_at;
    `);
  }
}
