import { supportedCurrencies } from '../../domain/currencies/currencies.ts';
import { toCurrency } from '../../mappers/currency.ts';
import { publicProcedure } from '../../trpc.ts';
import { ListCurrenciesInputSchema, ListCurrenciesOutputSchema } from './currencies.schema.ts';

export const listCurrenciesProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/currencies',
      tags: ['currencies'],
      summary: 'List the supported currencies',
      description:
        'The currencies an account may be opened in, with their ISO 4217 names and minor-unit exponents ' +
        '(amounts are integers of the minor unit: JPY has none, KWD three decimals). No authentication.',
      protect: false,
    },
  })
  .input(ListCurrenciesInputSchema)
  .output(ListCurrenciesOutputSchema)
  .query(() => ({ data: supportedCurrencies().map(toCurrency) }));
