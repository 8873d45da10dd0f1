import { Migration } from '@mikro-orm/migrations';

/**
 * A transaction's version rises with every change a client can see (issue 16):
 * - an update that changes any field of the API's Transaction (amount, status, description, dates,
 *   merchant, category, …) without raising `version` is refused, and so is a version going back;
 * - columns the API does not show (`settle_at`, `expire_at`, `reversed_amount`, `updated_at`) may
 *   change alone.
 * `ifVersion` relies on it, and so does the transaction list cache (packages/core,
 * `transaction-list-cache.ts`), which takes a row's id and version for the row. The check is the
 * trigger's WHEN, evaluated without calling a function; the function runs only to refuse.
 */
export class Migration20261124030000TransactionVersionRaised extends Migration {
  override name = '20261124030000-transaction-version-raised';

  override up(): void {
    this.addSql(`
      create function transactions_version_not_raised() returns trigger language plpgsql as $$
      begin
        raise exception 'transaction % changed without raising its version (%)', old.id, new.version
          using errcode = 'check_violation', constraint = 'transactions_version_raised';
      end $$;
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

  override down(): void {
    this.addSql(`
      drop trigger transactions_version_raised on transactions;
      drop function transactions_version_not_raised();
    `);
  }
}
