import { Migration } from '@mikro-orm/migrations';

/**
 * Reads of an Enable Banking session's account per scope and Warsaw day of the world's clock
 * (docs/faces/personalities.md): an ASPSP with a daily limit passes PSD2's four unattended reads a day
 * on as `ASPSP_RATE_LIMIT_EXCEEDED`. Keyed by the session account's uid, so each consent counts apart;
 * its rows go with the session.
 */
export class Migration20261129173000EnablebankingDailyAccess extends Migration {
  override name = '20261129173000-enablebanking-daily-access';

  override up(): void {
    this.addSql(`
      create table enablebanking_daily_access (
        uid uuid not null references enablebanking_session_accounts (uid) on delete cascade,
        scope text not null,
        day date not null,
        count integer not null,
        primary key (uid, scope, day)
      )`);
  }

  override down(): void {
    this.addSql('drop table enablebanking_daily_access');
  }
}
