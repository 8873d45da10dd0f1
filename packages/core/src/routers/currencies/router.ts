import { router } from '../../trpc.ts';
import { listCurrenciesProcedure } from './list-currencies.ts';

export const currenciesRouter = router({ listCurrencies: listCurrenciesProcedure });
