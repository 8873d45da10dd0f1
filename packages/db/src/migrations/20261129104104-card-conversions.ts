import { Migration } from '@mikro-orm/migrations';

/**
 * Foreign-currency card payments (docs/concepts/currencies.md, "Card payments abroad"): a transaction
 * may keep what the merchant charged (`original_amount` in `original_currency`'s minor units, signed like
 * `amount`) and the rate it was converted at (`exchange_rate`, account currency per 1 unit of the
 * original), all three or none. An account has its card FX margin (`card_fx_margin`, default 2 %).
 * Snapshots keep all four.
 */
export class Migration20261129104104CardConversions extends Migration {
  override name = '20261129104104-card-conversions';

  override up(): void {
    this.addSql(`
      alter table accounts add column card_fx_margin numeric(6, 5) not null default 0.02
        constraint accounts_card_fx_margin_range check (card_fx_margin >= 0 and card_fx_margin <= 0.1);
      alter table transactions add column original_amount bigint, add column original_currency text,
        add column exchange_rate numeric,
        add constraint transactions_conversion_whole check (
          (original_amount is null) = (original_currency is null) and (original_amount is null) = (exchange_rate is null)),
        add constraint transactions_conversion_sane check (original_amount is null or (
          sign(original_amount) = sign(amount) and exchange_rate > 0 and original_currency <> currency
          and original_currency in ('PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF', 'JPY', 'KWD')));
      alter table world_snapshot_accounts add column card_fx_margin numeric(6, 5) not null default 0.02;
      alter table world_snapshot_transactions add column original_amount bigint, add column original_currency text,
        add column exchange_rate numeric;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table world_snapshot_transactions drop column original_amount, drop column original_currency,
        drop column exchange_rate;
      alter table world_snapshot_accounts drop column card_fx_margin;
      alter table transactions drop column original_amount, drop column original_currency, drop column exchange_rate;
      alter table accounts drop column card_fx_margin;
    `);
  }
}
