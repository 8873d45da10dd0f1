import { Migration } from '@mikro-orm/migrations';

/**
 * The Plaid face (docs/faces/plaid.md). An Item links an app to the accounts its user had open when the Item
 * was created (`account_ids`). Its public token (one use, 30 minutes) and its access token are
 * stored only as SHA-256 hashes; `state` is `login_required` after `/sandbox/item/reset_login`
 * until it is repaired; a removed Item keeps its row (`removed_at`) so its token answers Plaid's
 * error, not a generic one.
 *
 * `transactions.posted_from_pending` records that a posted transaction was pending first: Plaid
 * gives such a transaction a new id and points at the pending one (`pending_transaction_id`). The
 * lifecycle's post transition sets it; rows posted before this migration get it from their events.
 */
export class Migration20261125010000PlaidItems extends Migration {
  override name = '20261125010000-plaid-items';

  override up(): void {
    this.addSql(`
      create table plaid_items (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        public_token_hash text not null unique,
        public_token_expires_at timestamptz(3) not null,
        access_token_hash text unique,
        account_ids uuid[] not null,
        webhook_url text,
        state text not null default 'good',
        created_at timestamptz(3) not null,
        removed_at timestamptz(3),
        constraint plaid_items_state_known check (state in ('good', 'login_required'))
      );
      create index plaid_items_user_idx on plaid_items (user_id);

      alter table transactions add column posted_from_pending boolean not null default false;
      update transactions t set posted_from_pending = true
       where t.status = 'posted' and exists (
         select 1 from events e
          where e.user_id = t.user_id and e.type = 'transaction.updated'
            and e.payload->'transaction'->>'id' = t.id::text and e.payload->'previous'->>'status' = 'pending');
    `);
  }

  override down(): void {
    this.addSql(`
      drop table plaid_items;
      alter table transactions drop column posted_from_pending;
    `);
  }
}
