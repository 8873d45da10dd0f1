import { Migration } from '@mikro-orm/migrations';

/**
 * An account's booked transactions in posting order, with their amounts: the Enable Banking face's
 * pages of a period (docs/faces/enablebanking.md) continue from the last entry's (posted_at, id) as a
 * range of this index, and the balance before a period is a sum read from it alone.
 */
export class Migration20261129174641TransactionsPostingOrder extends Migration {
  override name = '20261129174641-transactions-posting-order';

  override up(): void {
    this.addSql(
      `create index transactions_posting_order_idx on transactions (account_id, posted_at, id) include (amount) where status = 'posted'`,
    );
  }

  override down(): void {
    this.addSql('drop index transactions_posting_order_idx');
  }
}
