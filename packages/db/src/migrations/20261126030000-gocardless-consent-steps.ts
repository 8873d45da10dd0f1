import { Migration } from '@mikro-orm/migrations';

/**
 * The GoCardless consent flow's own steps (docs/faces/gocardless.md, GoCardless's requisition statuses): a
 * requisition moves `CR` → `GC` when its owner opens the consent page, → `SA` when they go on to pick
 * accounts, then `LN` or `RJ`. `UA` and `GA` take no time in Sandbank (the console's sign-in is the
 * bank's authentication; granting access is the transaction that links) and are never stored.
 * `step_at` is when the requisition reached its status, on the world's clock.
 */
export class Migration20261126030000GocardlessConsentSteps extends Migration {
  override name = '20261126030000-gocardless-consent-steps';

  override up(): void {
    this.addSql(`
      alter table gocardless_requisitions drop constraint gocardless_requisitions_status;
      alter table gocardless_requisitions add constraint gocardless_requisitions_status check (status in ('CR', 'GC', 'SA', 'LN', 'RJ'));
      alter table gocardless_requisitions add column step_at timestamptz(3);
      update gocardless_requisitions set step_at = coalesce(decided_at, created_at);
      alter table gocardless_requisitions alter column step_at set not null;
    `);
  }

  override down(): void {
    this.addSql(`
      update gocardless_requisitions set status = 'CR' where status in ('GC', 'SA');
      alter table gocardless_requisitions drop column step_at;
      alter table gocardless_requisitions drop constraint gocardless_requisitions_status;
      alter table gocardless_requisitions add constraint gocardless_requisitions_status check (status in ('CR', 'LN', 'RJ'));
    `);
  }
}
