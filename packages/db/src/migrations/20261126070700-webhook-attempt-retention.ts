import { Migration } from '@mikro-orm/migrations';

/**
 * Retention of each attempt's recorded exchange (docs/guides/webhooks.md, "How long exchanges are
 * kept"): the worker clears the request and response columns of attempts older than
 * WEBHOOK_ATTEMPT_RETENTION_HOURS and stamps `exchange_removed_at`, so the API can tell an exchange
 * removed by retention from one never recorded. The attempt row itself (status, timing, error,
 * faults) stays. The partial index holds only attempts whose exchange is still kept (a cleared one
 * has no `request_url`), so the worker finds the oldest of them without scanning the table, and the
 * index stays about one retention period's size.
 */
export class Migration20261126070700WebhookAttemptRetention extends Migration {
  override name = '20261126070700-webhook-attempt-retention';

  override up(): void {
    this.addSql(`
      alter table webhook_delivery_attempts add column exchange_removed_at timestamp(3) with time zone;
      create index webhook_delivery_attempts_exchange_kept_idx on webhook_delivery_attempts (started_at)
        where request_url is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index webhook_delivery_attempts_exchange_kept_idx;
      alter table webhook_delivery_attempts drop column exchange_removed_at;
    `);
  }
}
