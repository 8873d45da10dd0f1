import { IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { syncTransactions } from '../../domain/transactions/sync-transactions.ts';
import { protectedProcedure, readsFromReplica } from '../../trpc.ts';
import { SYNC_DESCRIPTION, SyncQuerySchema, SyncTransactionsOutputSchema } from './sync.schema.ts';

export const syncTransactionsProcedure = protectedProcedure
  .use(readsFromReplica)
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/transactions/sync',
      tags: ['transactions'],
      summary: 'Sync your transactions',
      description: `${SYNC_DESCRIPTION} \`accountId\` narrows the sync to one account; keep passing the same one with its cursors.`,
    },
    errorCodes: ['NOT_FOUND', 'CURSOR_EXPIRED'],
  })
  .input(z.strictObject({ accountId: IdSchema.optional(), ...SyncQuerySchema }))
  .output(SyncTransactionsOutputSchema)
  .query(async ({ ctx, input }) => ({ data: await syncTransactions(ctx.em, { userId: ctx.user.id, ...input }) }));
