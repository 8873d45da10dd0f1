import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { decideRequisition, REQUISITION_STATUSES, redirectAfterDecision } from '../../domain/gocardless/requisitions.ts';
import { protectedProcedure } from '../../trpc.ts';

export const decideRequisitionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/gocardless/requisitions/{id}/decision',
      tags: ['integrations'],
      summary: 'Approve or refuse a GoCardless requisition (the consent page)',
      description:
        'What the consent page behind a requisition’s `link` sends. `approve: true` links the accounts picked (default: every open account) and accepts the end-user agreement (status `LN`); `false` refuses (`RJ`). From `CR`, `GC` or `SA`; once only: a decided requisition is 409 CONFLICT. `redirect` is the app’s redirect URL with `ref` = the requisition’s reference.',
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT', 'VALIDATION_ERROR'],
  })
  .input(
    z.strictObject({
      id: IdSchema,
      approve: z.boolean(),
      accountIds: z.array(IdSchema).min(1).max(100).optional(),
    }),
  )
  .output(
    dataOf(
      z.object({
        id: IdSchema,
        status: z.enum(REQUISITION_STATUSES),
        accounts: z.array(IdSchema).meta({ description: 'The linked accounts’ GoCardless ids' }),
        redirect: z.url(),
      }),
    ).meta({ id: 'GocardlessDecision' }),
  )
  .mutation(async ({ ctx, input }) => {
    const requisition = await decideRequisition(ctx.em, { userId: ctx.user.id, ...input });
    return {
      data: {
        id: requisition.id,
        status: requisition.status,
        accounts: requisition.accounts,
        redirect: redirectAfterDecision(requisition),
      },
    };
  });
