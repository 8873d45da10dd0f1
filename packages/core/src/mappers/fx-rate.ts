/** The one FxRate mapper: a world's rate of a day (domain/currencies/fx-rates.ts) → the API's FxRate shape. */
import type { FxRate } from '@sandbank/schemas';
import type { FxRate as WorldRate } from '../domain/currencies/fx-rates.ts';

export const toFxRate = (rate: WorldRate): FxRate => ({
  date: rate.date,
  rateDate: rate.rateDate,
  base: rate.base,
  quote: rate.quote,
  rate: rate.rate,
  pinned: rate.pinned,
});
