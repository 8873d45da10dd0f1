import { Migration } from '@mikro-orm/migrations';

/**
 * Transactions carry their owner (an account never changes hands), so the pull endpoint reads
 * "every account of a user, newest first" from one index instead of sorting all their rows.
 */
export class Migration20261122050000TransactionOwner extends Migration {
  override name = '20261122050000-transaction-owner';

  override up(): void {
    this.addSql(`
      alter table transactions add column user_id uuid references users (id) on delete cascade;
      update transactions t set user_id = a.user_id from accounts a where a.id = t.account_id;
      alter table transactions alter column user_id set not null;
      create index transactions_owner_history_idx on transactions (user_id, date desc, id desc);
    `);
  }

  override down(): void {
    this.addSql('alter table transactions drop column user_id;');
  }
}
