import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks, second build (issue 11):
 * - `previous_secret_*` and `secret_rotated_at`: after `PATCH /v1/webhooks/:id` with a new secret,
 *   deliveries are signed with both secrets until the overlap (WEBHOOK_SECRET_OVERLAP_HOURS) ends,
 *   so a receiver can roll its secret without dropping an event (the Standard Webhooks way).
 * - `webhook_deliveries.cycle`: every redelivery starts a new cycle and its jobs carry it. An
 *   attempt of an older cycle still in flight is recorded but changes neither the delivery's state
 *   nor its next try, so a redelivery asked for meanwhile is never pushed back or lost; and a job
 *   whose delivery is already `succeeded` in its own cycle (its completion was lost) sends nothing.
 */
export class Migration20261124020000WebhookRotationAndCycles extends Migration {
  override name = '20261124020000-webhook-rotation-and-cycles';

  override up(): void {
    this.addSql(`
      alter table webhooks
        add column previous_secret_ciphertext text,
        add column previous_secret_key_id text,
        add column secret_rotated_at timestamptz(3);
      alter table webhook_deliveries
        add column cycle integer not null default 1,
        add constraint webhook_deliveries_cycle_positive check (cycle >= 1);
    `);
  }

  override down(): void {
    this.addSql(`
      alter table webhooks drop column previous_secret_ciphertext, drop column previous_secret_key_id, drop column secret_rotated_at;
      alter table webhook_deliveries drop column cycle;
    `);
  }
}
