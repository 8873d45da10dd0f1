import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes under the payments' foreign keys. Without them every deleted transaction made PostgreSQL scan
 * all transactions for a `counterpart_transaction_id` pointing at it (ON DELETE SET NULL), and every
 * deleted account all payments: removing a world with a year of history took minutes.
 */
export class Migration20261129130435PaymentLinkIndexes extends Migration {
  override name = '20261129130435-payment-link-indexes';

  override up(): void {
    this.addSql(`
      create index transactions_counterpart_idx on transactions (counterpart_transaction_id)
        where counterpart_transaction_id is not null;
      create index payments_from_account_idx on payments (from_account_id);
      create index payments_to_account_idx on payments (to_account_id) where to_account_id is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index payments_to_account_idx;
      drop index payments_from_account_idx;
      drop index transactions_counterpart_idx;
    `);
  }
}
