import { Migration } from '@mikro-orm/migrations';

/**
 * The password guard's buckets (RATE_LIMIT_STORE=postgres), shared by replicas. One row per bucket
 * (subject+IP, or IP per day) keeps apart what rate-limiter-flexible's single `points` cannot:
 * guesses still being checked (`in_flight`), wrong ones (`failed`) and the block (`blocked_until`,
 * epoch ms), so a guess refused or given back never moves the count of another or lowers a block.
 */
export class Migration20261125030000PasswordGuesses extends Migration {
  override name = '20261125030000-password-guesses';

  override up(): void {
    this.addSql(`
      create table password_guesses (
        key varchar(255) primary key,
        in_flight integer not null default 0,
        failed integer not null default 0,
        blocked_until bigint,
        expire bigint not null
      );
      create index password_guesses_expire_idx on password_guesses (expire);
    `);
  }

  override down(): void {
    this.addSql('drop table if exists password_guesses;');
  }
}
