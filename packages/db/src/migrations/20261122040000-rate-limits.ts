import { Migration } from '@mikro-orm/migrations';

/**
 * The shared store of rate-limiter-flexible's `RateLimiterPostgres` (RATE_LIMIT_STORE=postgres):
 * the library's own schema (key, points, expire in epoch ms), created here so no replica creates
 * it at run time (`tableCreated: true`). The index serves the library's periodic
 * `DELETE … WHERE expire < $1`.
 */
export class Migration20261122040000RateLimits extends Migration {
  override name = '20261122040000-rate-limits';

  override up(): void {
    this.addSql(`
      create table rate_limits (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      );
      create index rate_limits_expire_idx on rate_limits (expire);
    `);
  }

  override down(): void {
    this.addSql('drop table if exists rate_limits;');
  }
}
