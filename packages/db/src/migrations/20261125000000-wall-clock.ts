import { Migration } from '@mikro-orm/migrations';

/**
 * `sandbank_wall_now()`: the wall time every world's clock is counted from (domain/clock/clock.ts),
 * the statement's timestamp on the database server. One function rather than `statement_timestamp()`
 * written inline, so that a test run may shift wall time for the worlds without shifting the
 * server's own clock (scripts/test-at-instants.ts: PostgreSQL's timers break under libfaketime).
 * A one-line `stable` SQL function is inlined by the planner: no call is made per row.
 */
export class Migration20261125000000WallClock extends Migration {
  override name = '20261125000000-wall-clock';

  override up(): void {
    this.addSql(`create or replace function sandbank_wall_now() returns timestamptz
      language sql stable parallel safe as 'select statement_timestamp()';`);
  }

  override down(): void {
    this.addSql('drop function sandbank_wall_now();');
  }
}
