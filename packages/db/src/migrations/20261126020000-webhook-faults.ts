import { Migration } from '@mikro-orm/migrations';

/**
 * The webhook lab (docs/guides/webhooks.md): a webhook's `faults` (null: none, the default) and, per attempt, the
 * faults it carried (an array, empty for none), so the delivery log tells an injected failure from
 * a real one.
 */
export class Migration20261126020000WebhookFaults extends Migration {
  override name = '20261126020000-webhook-faults';

  override up(): void {
    this.addSql(`
      alter table webhooks add column faults jsonb;
      alter table webhook_delivery_attempts add column faults jsonb not null default '[]';
    `);
  }

  override down(): void {
    this.addSql(`
      alter table webhooks drop column faults;
      alter table webhook_delivery_attempts drop column faults;
    `);
  }
}
