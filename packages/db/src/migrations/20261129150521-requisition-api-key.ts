import { Migration } from '@mikro-orm/migrations';

/**
 * The API key a GoCardless requisition was created with (its `secret_id`): the consent page names the
 * requesting app by the key's name. Null for requisitions made before. Keys are revoked, not deleted;
 * a user's removal deletes both, hence the index under the foreign key.
 */
export class Migration20261129150521RequisitionApiKey extends Migration {
  override name = '20261129150521-requisition-api-key';

  override up(): void {
    this.addSql(`
      alter table gocardless_requisitions add column api_key_id uuid references api_keys (id) on delete set null;
      create index gocardless_requisitions_api_key_idx on gocardless_requisitions (api_key_id) where api_key_id is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index gocardless_requisitions_api_key_idx;
      alter table gocardless_requisitions drop column api_key_id;
    `);
  }
}
