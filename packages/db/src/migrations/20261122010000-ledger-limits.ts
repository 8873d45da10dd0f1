import { Migration } from '@mikro-orm/migrations';

/**
 * Balances are served as JavaScript numbers, exact only up to 2^53. The database refuses any
 * balance above 10^15 minor units, well inside that range; the simulation statement checks the
 * same bound first so clients get 422 BALANCE_LIMIT_EXCEEDED instead of a constraint error.
 */
export class Migration20261122010000LedgerLimits extends Migration {
  override name = '20261122010000-ledger-limits';

  override up(): void {
    this.addSql('alter table accounts add constraint accounts_balance_within_limit check (balance <= 1000000000000000);');
  }

  override down(): void {
    this.addSql('alter table accounts drop constraint accounts_balance_within_limit;');
  }
}
