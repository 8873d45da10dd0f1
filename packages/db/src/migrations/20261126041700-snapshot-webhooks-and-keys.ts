import { Migration } from '@mikro-orm/migrations';

/**
 * A snapshot may keep the world's webhooks and API keys when asked (`include` of
 * `POST /v1/sandbox/snapshots`; docs/concepts/disposable-worlds.md). Never their secret material:
 * a webhook is kept as its subscription (URL, event kinds, client id, status, faults), an API key as
 * its shape (name, age, expiry). A fork makes each of them anew with a fresh secret, shown once in
 * its answer. Numbered (`ord`) after the snapshot's accounts, transactions and schedules, so a fork
 * derives their new ids the same way.
 */
export class Migration20261126041700SnapshotWebhooksAndKeys extends Migration {
  override name = '20261126041700-snapshot-webhooks-and-keys';

  override up(): void {
    this.addSql(`
      alter table world_snapshots
        add column webhooks integer not null default 0,
        add column api_keys integer not null default 0;

      create table world_snapshot_webhooks (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        ord integer not null,
        id uuid not null,
        client_id text not null,
        url text not null,
        events text[] not null,
        status text not null,
        disabled_reason text,
        faults jsonb,
        created_at timestamptz(3) not null,
        primary key (snapshot_id, ord)
      );

      create table world_snapshot_api_keys (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        ord integer not null,
        id uuid not null,
        name text not null,
        created_at timestamptz(3) not null,
        expires_at timestamptz(3),
        primary key (snapshot_id, ord)
      );
    `);
  }

  override down(): void {
    this.addSql(`
      drop table world_snapshot_api_keys;
      drop table world_snapshot_webhooks;
      alter table world_snapshots drop column api_keys, drop column webhooks;
    `);
  }
}
