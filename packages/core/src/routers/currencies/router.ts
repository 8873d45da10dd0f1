import { router } from '../../trpc.ts';
import { listCurrenciesProcedure } from './list-currencies.ts';
import { listFxRatesProcedure } from './list-fx-rates.ts';
import { pinFxRateProcedure } from './pin-fx-rate.ts';

export const currenciesRouter = router({
  listCurrencies: listCurrenciesProcedure,
  listFxRates: listFxRatesProcedure,
  pinFxRate: pinFxRateProcedure,
});
