import { dataOf, IdSchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { readTransaction } from '../../domain/transactions/read-transaction.ts';
import { protectedProcedure } from '../../trpc.ts';

export const getTransactionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/transactions/{id}',
      tags: ['transactions'],
      summary: 'Get a transaction',
      description:
        'One transaction as it is now, whatever its status (voided ones too), with its `version` for the next `ifVersion`.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: IdSchema }))
  .output(dataOf(TransactionSchema))
  .query(async ({ ctx, input }) => ({ data: await readTransaction(ctx.em, ctx.user.id, input.id) }));
