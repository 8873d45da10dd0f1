import { Migration } from '@mikro-orm/migrations';

/**
 * A payment's links on its transactions (`payment_id`, `counterpart_transaction_id`, migration
 * 20261129103059) are shown on the Transaction, so changing them must raise the version, as any shown
 * column. One change is exempt: a link set to null by its foreign key's ON DELETE SET NULL, which
 * happens only while a world's rows are being removed together (a reset deletes the transactions first;
 * a user's removal cascades to both), where refusing it would refuse the removal.
 */
export class Migration20261129121300PaymentLinksVersionRule extends Migration {
  override name = '20261129121300-payment-links-version-rule';

  override up(): void {
    this.addSql(`
      drop trigger transactions_version_raised on transactions;
      create trigger transactions_version_raised before update on transactions for each row
        when (new.version < old.version or (new.version = old.version and
          (new.id, new.account_id, new.external_txn_id, new.amount, new.currency, new.date, new.description, new.raw,
           new.status, new.posted_at, new.merchant, new.category, new.reversal_of, new.original_amount,
           new.original_currency, new.exchange_rate, coalesce(new.payment_id, old.payment_id),
           coalesce(new.counterpart_transaction_id, old.counterpart_transaction_id))
          is distinct from
          (old.id, old.account_id, old.external_txn_id, old.amount, old.currency, old.date, old.description, old.raw,
           old.status, old.posted_at, old.merchant, old.category, old.reversal_of, old.original_amount,
           old.original_currency, old.exchange_rate, old.payment_id, old.counterpart_transaction_id)))
        execute function transactions_version_not_raised();
    `);
  }

  override down(): void {
    this.addSql(`
      drop trigger transactions_version_raised on transactions;
      create trigger transactions_version_raised before update on transactions for each row
        when (new.version < old.version or (new.version = old.version and
          (new.id, new.account_id, new.external_txn_id, new.amount, new.currency, new.date, new.description, new.raw,
           new.status, new.posted_at, new.merchant, new.category, new.reversal_of, new.original_amount,
           new.original_currency, new.exchange_rate)
          is distinct from
          (old.id, old.account_id, old.external_txn_id, old.amount, old.currency, old.date, old.description, old.raw,
           old.status, old.posted_at, old.merchant, old.category, old.reversal_of, old.original_amount,
           old.original_currency, old.exchange_rate)))
        execute function transactions_version_not_raised();
    `);
  }
}
