import { Migration } from '@mikro-orm/migrations';

/**
 * Rotating the Plaid webhook signing key (docs/faces/plaid.md): a rotation retires the current key
 * (`retired_at`: it signs nothing more) and makes a new one; the retired key's `expired_at` is set
 * an overlap later, so receivers still verify the webhooks it signed before the rotation (in flight,
 * queued, within Plaid's 5-minute `iat` window). `/webhook_verification_key/get` shows `expired_at`
 * only once it has passed. One key is current: the unique index moves from `expired_at` to
 * `retired_at`.
 */
export class Migration20261126031000PlaidSigningKeyRotation extends Migration {
  override name = '20261126031000-plaid-signing-key-rotation';

  override up(): void {
    this.addSql(`
      alter table plaid_signing_keys add column retired_at timestamptz(3);
      update plaid_signing_keys set retired_at = expired_at where expired_at is not null;
      drop index plaid_signing_keys_one_current;
      create unique index plaid_signing_keys_one_current on plaid_signing_keys ((true)) where retired_at is null;
      alter table plaid_signing_keys add constraint plaid_signing_keys_expiry
        check ((retired_at is null) = (expired_at is null) and (expired_at is null or expired_at >= retired_at));
    `);
  }

  override down(): void {
    this.addSql(`
      alter table plaid_signing_keys drop constraint plaid_signing_keys_expiry;
      drop index plaid_signing_keys_one_current;
      alter table plaid_signing_keys drop column retired_at;
      create unique index plaid_signing_keys_one_current on plaid_signing_keys ((true)) where expired_at is null;
    `);
  }
}
