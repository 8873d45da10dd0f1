import { Migration } from '@mikro-orm/migrations';

/**
 * A snapshot remembers what it was asked to keep (`include`), not only how many it kept: a snapshot
 * that kept webhooks of a world that had none is not one that did not keep them, and the client's
 * `ensureSnapshot` reuses a snapshot by name only when its `include` is the one asked for. In one
 * order (`webhooks`, then `apiKeys`), each kind at most once. Snapshots taken before this migration
 * are read from their counts: a kind they kept rows of is in their `include`.
 */
export class Migration20261126065000SnapshotInclude extends Migration {
  override name = '20261126065000-snapshot-include';

  override up(): void {
    this.addSql(`
      alter table world_snapshots
        add column include text[] not null default '{}',
        add constraint world_snapshots_include_known
          check (include in ('{}'::text[], '{webhooks}'::text[], '{apiKeys}'::text[], '{webhooks,apiKeys}'::text[]));

      update world_snapshots
         set include = case
               when webhooks > 0 and api_keys > 0 then '{webhooks,apiKeys}'
               when webhooks > 0 then '{webhooks}'
               when api_keys > 0 then '{apiKeys}'
               else '{}'
             end::text[];
    `);
  }

  override down(): void {
    this.addSql('alter table world_snapshots drop column include;');
  }
}
