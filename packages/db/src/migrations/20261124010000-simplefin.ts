import { Migration } from '@mikro-orm/migrations';

/**
 * SimpleFIN setup tokens (docs/faces/simplefin.md): a claim code, stored only as its SHA-256, single use, with an
 * expiry. Claiming it (one conditional UPDATE) creates an API key named "SimpleFIN" for the user.
 */
export class Migration20261124010000Simplefin extends Migration {
  override name = '20261124010000-simplefin';

  override up(): void {
    this.addSql(`
      create table simplefin_claims (
        code_hash text primary key,
        user_id uuid not null references users (id) on delete cascade,
        expires_at timestamptz(3) not null,
        claimed_at timestamptz(3),
        api_key_id uuid references api_keys (id) on delete set null,
        created_at timestamptz(3) not null default now()
      );
      create index simplefin_claims_user_idx on simplefin_claims (user_id);
    `);
  }

  override down(): void {
    this.addSql('drop table simplefin_claims;');
  }
}
