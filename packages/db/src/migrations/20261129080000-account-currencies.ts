import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts in any supported currency (docs/concepts/currencies.md): the check lists the codes of
 * `CURRENCIES` (packages/schemas), and a transaction's currency must be its account's. That is a
 * foreign key on (account_id, currency) instead of the one on account_id alone, so a booking still
 * costs one parent lookup (the unique index on accounts (id, currency)), and an account's currency
 * cannot change while it has transactions.
 */
export class Migration20261129080000AccountCurrencies extends Migration {
  override name = '20261129080000-account-currencies';

  override up(): void {
    this.addSql(`
      alter table accounts drop constraint accounts_currency_known;
      alter table accounts add constraint accounts_currency_known
        check (currency in ('PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF', 'JPY', 'KWD'));
      alter table accounts add constraint accounts_id_currency_key unique (id, currency);
      alter table transactions drop constraint transactions_account_id_fkey;
      alter table transactions add constraint transactions_account_currency_fkey
        foreign key (account_id, currency) references accounts (id, currency) on delete cascade;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table transactions drop constraint transactions_account_currency_fkey;
      alter table transactions add constraint transactions_account_id_fkey
        foreign key (account_id) references accounts (id) on delete cascade;
      alter table accounts drop constraint accounts_id_currency_key;
      alter table accounts drop constraint accounts_currency_known;
      alter table accounts add constraint accounts_currency_known check (currency in ('PLN'));
    `);
  }
}
