import { listMeta, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { listRequisitions } from '../../domain/gocardless/requisitions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { RequisitionViewSchema, toRequisitionView } from './requisition.schema.ts';

export const listRequisitionsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/gocardless/requisitions',
      tags: ['integrations'],
      summary: 'List the world’s GoCardless requisitions',
      description:
        'Every requisition apps made through the GoCardless face in the caller’s world, newest first, with its status on the world’s clock (`EX` once the agreement ran out).',
    },
  })
  .input(z.strictObject({ ...PageQuerySchema }))
  .output(listOf(RequisitionViewSchema))
  .query(async ({ ctx, input }) => {
    const page = await listRequisitions(ctx.em, {
      userId: ctx.user.id,
      limit: input.limit,
      offset: (input.page - 1) * input.limit,
    });
    return { data: page.results.map(toRequisitionView), meta: listMeta(input.page, input.limit, page.count) };
  });
