import { Migration } from '@mikro-orm/migrations';

/**
 * Each account keeps the number of its transactions, maintained by the statement that books
 * them, so an unfiltered history page knows its `total` without counting every row.
 */
export class Migration20261122060000AccountTransactionCount extends Migration {
  override name = '20261122060000-account-transaction-count';

  override up(): void {
    this.addSql(`
      alter table accounts add column transaction_count bigint not null default 0;
      update accounts a set transaction_count = (select count(*) from transactions t where t.account_id = a.id);
    `);
  }

  override down(): void {
    this.addSql('alter table accounts drop column transaction_count;');
  }
}
