import { Migration } from '@mikro-orm/migrations';

/**
 * The world's reference rates (docs/concepts/currencies.md, "Rates"): the generated rates are computed,
 * never stored; what a world stores is its seed (`users.fx_seed`, null: the documented default) and the
 * rates pinned in it (`PUT /v1/fx/rates`). Both are world data: a snapshot keeps them
 * (`world_snapshots.fx_seed`, `world_snapshot_fx_rate_pins`), a fork or restore copies them, a reset
 * removes them, and they go with their user.
 */
export class Migration20261129103031FxRates extends Migration {
  override name = '20261129103031-fx-rates';

  override up(): void {
    this.addSql(`
      alter table users add column fx_seed integer constraint users_fx_seed_range check (fx_seed >= 0);
      create table fx_rate_pins (
        user_id uuid not null references users (id) on delete cascade,
        day date not null,
        base text not null,
        quote text not null,
        rate numeric not null,
        created_at timestamp(3) with time zone not null default now(),
        constraint fx_rate_pins_pkey primary key (user_id, day, base, quote),
        constraint fx_rate_pins_pair check (base <> quote
          and base in ('PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF', 'JPY', 'KWD')
          and quote in ('PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF', 'JPY', 'KWD')),
        constraint fx_rate_pins_rate check (rate > 0 and rate < 1000000000000)
      );
      alter table world_snapshots add column fx_seed integer;
      create table world_snapshot_fx_rate_pins (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        day date not null,
        base text not null,
        quote text not null,
        rate numeric not null,
        constraint world_snapshot_fx_rate_pins_pkey primary key (snapshot_id, day, base, quote)
      );
    `);
  }

  override down(): void {
    this.addSql(`
      drop table world_snapshot_fx_rate_pins;
      alter table world_snapshots drop column fx_seed;
      drop table fx_rate_pins;
      alter table users drop column fx_seed;
    `);
  }
}
