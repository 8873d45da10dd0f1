import { listFxRates } from '../../domain/currencies/fx-rates.ts';
import { toFxRate } from '../../mappers/fx-rate.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ListFxRatesInputSchema, ListFxRatesOutputSchema } from './currencies.schema.ts';

export const listFxRatesProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/fx/rates',
      tags: ['currencies'],
      summary: "The world's exchange rates for a day",
      description:
        "Every supported currency's rate against `base` (quote per 1 base) on `date` (default: the world's today, Europe/Warsaw): " +
        'the reference rates generated from the world’s seed (the same on every machine; TARGET business days change, ' +
        'weekends and closing days keep the last business day’s), unless one is pinned in this world (`PUT /v1/fx/rates`). ' +
        'Cross rates go through PLN, rounded once to 12 significant digits.',
    },
  })
  .input(ListFxRatesInputSchema)
  .output(ListFxRatesOutputSchema)
  .query(async ({ ctx, input }) => ({
    data: (await listFxRates(ctx.em, { userId: ctx.user.id, date: input.date, base: input.base })).map(toFxRate),
  }));
