import { Migration } from '@mikro-orm/migrations';

/**
 * `request_fingerprint`: what the simulation that booked a transaction asked for (amount, currency,
 * description, status, merchant, category and how long after its date it settles or expires), as
 * a SHA-256. A simulation repeated under the same `externalTxnId` is compared with it, so a
 * different request is 409 IDEMPOTENCY_CONFLICT even after the transaction moved on (posted with a
 * tip, patched), when its row no longer shows what was asked. Null for rows not booked by a
 * simulation (scenarios, reversals) and for those booked before this column.
 */
export class Migration20261124040000TransactionRequestFingerprint extends Migration {
  override name = '20261124040000-transaction-request-fingerprint';

  override up(): void {
    this.addSql('alter table transactions add column request_fingerprint text;');
  }

  override down(): void {
    this.addSql('alter table transactions drop column request_fingerprint;');
  }
}
