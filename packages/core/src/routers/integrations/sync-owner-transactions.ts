import { z } from 'zod';
import { resolveOwner } from '../../domain/integrations/resolve-owner.ts';
import { syncTransactions } from '../../domain/transactions/sync-transactions.ts';
import { byApiKey, rateLimit } from '../../protection/rate-limit-middleware.ts';
import { apiKeyProcedure, readsFromReplica } from '../../trpc.ts';
import { SYNC_DESCRIPTION, SyncQuerySchema, SyncTransactionsOutputSchema } from '../transactions/sync.schema.ts';
import { OwnerParamSchema } from './pull-transactions.ts';

export const syncOwnerTransactionsProcedure = apiKeyProcedure
  .use(rateLimit('apiKey', byApiKey))
  .use(readsFromReplica)
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/owner/{owner}/transactions/sync',
      tags: ['integrations'],
      summary: 'Sync an owner’s transactions',
      description: `For external systems, with \`Authorization: Bearer <API_KEY>\`; the owner is resolved as for the pull endpoint (a user key reads only its own user). ${SYNC_DESCRIPTION}`,
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT', 'CURSOR_EXPIRED'],
  })
  .input(z.strictObject({ owner: OwnerParamSchema, ...SyncQuerySchema }))
  .output(SyncTransactionsOutputSchema)
  .query(async ({ ctx, input }) => {
    const { id: userId } = await resolveOwner(ctx.em, ctx.apiKey, input.owner);
    return { data: await syncTransactions(ctx.em, { userId, cursor: input.cursor, limit: input.limit }) };
  });
