import { Migration } from '@mikro-orm/migrations';

/**
 * A refresh token remembers whether its session is a child world's, so a refresh issues the same kind
 * of access token (with `wld`, checked against the world on every request) however the database
 * changed meanwhile. Before, a refresh read it from the `worlds` row: once that row was gone but the
 * child's user stayed (its parent's user deleted out of band, which cascades to `worlds.parent_id`
 * only, or the row deleted by hand), the refresh issued a token without `wld` — an ordinary user,
 * no TTL. Now such a refresh is refused. Existing tokens of child worlds are marked: those with a `worlds`
 * row, and those whose row is gone already (a world's user has no password: `!world`, domain/worlds/worlds.ts).
 */
export class Migration20261126065100WorldRefreshTokens extends Migration {
  override name = '20261126065100-world-refresh-tokens';

  override up(): void {
    this.addSql(`
      alter table refresh_tokens add column world boolean not null default false;
      update refresh_tokens set world = true
       where user_id in (select id from worlds)
          or user_id in (select id from users where password_hash = '!world');
    `);
  }

  override down(): void {
    this.addSql('alter table refresh_tokens drop column world;');
  }
}
