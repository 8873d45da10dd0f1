import { Migration } from '@mikro-orm/migrations';

/**
 * The conversion of a card payment in another currency (`original_amount`, `original_currency`,
 * `exchange_rate`, migration 20261129104104) is shown on the Transaction, so changing it must raise the
 * version, as any shown column: the version rule's trigger lists them too.
 */
export class Migration20261129113616ConversionVersionRule extends Migration {
  override name = '20261129113616-conversion-version-rule';

  override up(): void {
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

  override down(): void {
    this.addSql(`
      drop trigger transactions_version_raised on transactions;
      create trigger transactions_version_raised before update on transactions for each row
        when (new.version < old.version or (new.version = old.version and
          (new.id, new.account_id, new.external_txn_id, new.amount, new.currency, new.date, new.description, new.raw,
           new.status, new.posted_at, new.merchant, new.category, new.reversal_of)
          is distinct from
          (old.id, old.account_id, old.external_txn_id, old.amount, old.currency, old.date, old.description, old.raw,
           old.status, old.posted_at, old.merchant, old.category, old.reversal_of)))
        execute function transactions_version_not_raised();
    `);
  }
}
