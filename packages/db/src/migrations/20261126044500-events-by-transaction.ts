import { Migration } from '@mikro-orm/migrations';

/**
 * A transaction's timeline (`GET /v1/events?transactionId=`): its own events and the creation of
 * its reversals, found by the transaction id in the payload instead of walking the user's whole
 * log. The expressions are the ones the event log's filter uses (domain/events/event-log.ts).
 */
export class Migration20261126044500EventsByTransaction extends Migration {
  override name = '20261126044500-events-by-transaction';

  override up(): void {
    this.addSql(`
      create index events_transaction_idx on events ((payload #>> '{transaction,id}'))
        where (payload #>> '{transaction,id}') is not null;
      create index events_reversal_of_idx on events ((payload #>> '{transaction,reversalOf}'))
        where (payload #>> '{transaction,reversalOf}') is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index events_reversal_of_idx;
      drop index events_transaction_idx;
    `);
  }
}
