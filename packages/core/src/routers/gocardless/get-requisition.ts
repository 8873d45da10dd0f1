import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { readRequisition } from '../../domain/gocardless/requisitions.ts';
import { notFound } from '../../errors.ts';
import { protectedProcedure } from '../../trpc.ts';
import { RequisitionViewSchema, toRequisitionView } from './requisition.schema.ts';

export const getRequisitionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/gocardless/requisitions/{id}',
      tags: ['integrations'],
      summary: 'A GoCardless requisition as its consent page shows it',
      description:
        'What an app asks for through the GoCardless face: the institution, the end-user agreement’s scopes and days, and where the owner’s browser goes after the decision. Another user’s requisition is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: IdSchema }))
  .output(dataOf(RequisitionViewSchema))
  .query(async ({ ctx, input }) => {
    const requisition = await readRequisition(ctx.em, { userId: ctx.user.id, id: input.id });
    if (!requisition) throw notFound('Requisition');
    return { data: toRequisitionView(requisition) };
  });
