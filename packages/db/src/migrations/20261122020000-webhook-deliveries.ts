import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook delivery reads: a webhook's deliveries newest first (the deliveries endpoint), and the
 * relay's lookup of a user's active subscriptions.
 */
export class Migration20261122020000WebhookDeliveries extends Migration {
  override name = '20261122020000-webhook-deliveries';

  override up(): void {
    this.addSql(`
      create index webhook_deliveries_history_idx on webhook_deliveries (webhook_id, created_at desc, id desc);
      create index webhooks_active_user_idx on webhooks (user_id) where status = 'active' and deleted_at is null;
    `);
  }
}
