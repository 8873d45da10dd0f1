import { Migration } from '@mikro-orm/migrations';

/**
 * Plaid webhooks (docs/faces/plaid.md), delivered by the same machinery as ours (deliveries, attempts,
 * retries, redeliver):
 * - an Item with a webhook URL has a `webhooks` row of its own (`plaid_item_id`), client id
 *   `plaid`, subscribed to the transaction events; the relay gives it the events of the Item's
 *   accounts, and `plaid.webhook` events of its Item (fired by the sandbox calls);
 * - the ES256 key that signs `Plaid-Verification` is kept like webhook secrets: the private JWK
 *   sealed with WEBHOOK_ENCRYPTION_KEYS, its public half served by `/webhook_verification_key/get`.
 *   One key is current (`expired_at` null); a rotation expires it and makes another.
 */
export class Migration20261125020000PlaidWebhooks extends Migration {
  override name = '20261125020000-plaid-webhooks';

  override up(): void {
    this.addSql(`
      create table plaid_signing_keys (
        kid text primary key,
        private_key_ciphertext text not null,
        private_key_key_id text not null,
        public_jwk jsonb not null,
        created_at timestamptz(3) not null default now(),
        expired_at timestamptz(3)
      );
      create unique index plaid_signing_keys_one_current on plaid_signing_keys ((true)) where expired_at is null;

      alter table webhooks add column plaid_item_id uuid references plaid_items (id) on delete cascade;
      create unique index webhooks_plaid_item_key on webhooks (plaid_item_id) where plaid_item_id is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table webhooks drop column plaid_item_id;
      drop table plaid_signing_keys;
    `);
  }
}
