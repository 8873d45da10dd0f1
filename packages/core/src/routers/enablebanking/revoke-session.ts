import { dataOf } from '@sandbank/schemas';
import { z } from 'zod';
import { revokeSession } from '../../domain/enablebanking/sessions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { EnablebankingSessionSchema, toSessionView } from './session.schema.ts';

export const revokeSessionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/enablebanking/sessions/{id}',
      tags: ['integrations'],
      summary: 'Revoke an Enable Banking session',
      description:
        'The owner withdraws consent: the session is `CLOSED` at the world’s now, as when the app deletes it, and its accounts no longer answer the app. A closed session is 409 CONFLICT; another user’s is 404.',
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(z.strictObject({ id: z.uuid() }))
  .output(dataOf(EnablebankingSessionSchema))
  .mutation(async ({ ctx, input }) => ({
    data: toSessionView(await revokeSession(ctx.em, { userId: ctx.user.id, id: input.id })),
  }));
