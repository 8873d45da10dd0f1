import { pinFxRate } from '../../domain/currencies/fx-rates.ts';
import { toFxRate } from '../../mappers/fx-rate.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PinFxRateInputSchema, PinFxRateOutputSchema } from './currencies.schema.ts';

export const pinFxRateProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/v1/fx/rates',
      tags: ['currencies'],
      summary: 'Pin an exchange rate in the world',
      description:
        'Sets `rate` (quote per 1 base) for one day and pair in this world only, replacing a pin of the pair or its ' +
        'inverse that day. It holds on that day and, for a business day, on the closing days after it; cross rates ' +
        'through a pinned PLN leg follow it. Pins are world data: snapshots keep them, forks and restores copy them, ' +
        'a reset removes them. At most 1000 per world (422 LIMIT_EXCEEDED).',
    },
  })
  .input(PinFxRateInputSchema)
  .output(PinFxRateOutputSchema)
  .mutation(async ({ ctx, input }) => ({ data: toFxRate(await pinFxRate(ctx.em, { userId: ctx.user.id, ...input })) }));
