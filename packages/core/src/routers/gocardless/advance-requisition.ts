import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { advanceRequisition } from '../../domain/gocardless/requisitions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { RequisitionViewSchema, toRequisitionView } from './requisition.schema.ts';

export const advanceRequisitionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/gocardless/requisitions/{id}/step',
      tags: ['integrations'],
      summary: 'Record the owner’s step on a GoCardless consent page',
      description:
        'What the consent page sends as the owner goes through it: `GC` (giving consent) when it opens, `SA` (selecting accounts) when they go on to pick accounts, on the world’s clock. Forwards only: an earlier step, or a decided requisition, is left as it is (no error). Another user’s requisition is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: IdSchema, step: z.enum(['GC', 'SA']) }))
  .output(dataOf(RequisitionViewSchema))
  .mutation(async ({ ctx, input }) => ({
    data: toRequisitionView(await advanceRequisition(ctx.em, { userId: ctx.user.id, ...input })),
  }));
