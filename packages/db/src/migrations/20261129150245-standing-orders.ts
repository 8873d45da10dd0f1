import { Migration } from '@mikro-orm/migrations';

/**
 * Standing orders (docs/concepts/payments.md): a schedule whose occurrence makes a payment
 * instead of booking a transaction. `payment` holds what each occurrence pays — `{ "to": { "iban", "name" },
 * "scheme"? }` — and is null for an ordinary schedule. A snapshot keeps it, so a fork or a restore keeps
 * the standing order.
 */
export class Migration20261129150245StandingOrders extends Migration {
  override name = '20261129150245-standing-orders';

  override up(): void {
    this.addSql('alter table schedules add column payment jsonb');
    this.addSql('alter table world_snapshot_schedules add column payment jsonb');
  }

  override down(): void {
    this.addSql('alter table world_snapshot_schedules drop column payment');
    this.addSql('alter table schedules drop column payment');
  }
}
