import { listMeta, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { listApplications } from '../../domain/enablebanking/applications.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ApplicationSchema, toApplicationView } from './application.schema.ts';

export const listApplicationsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/enablebanking/applications',
      tags: ['integrations'],
      summary: 'List your Enable Banking applications',
      description: 'Every application registered in the caller’s world, newest first, with its public key (never a private key).',
    },
  })
  .input(z.strictObject({ ...PageQuerySchema }))
  .output(listOf(ApplicationSchema))
  .query(async ({ ctx, input }) => {
    const page = await listApplications(ctx.em, {
      userId: ctx.user.id,
      limit: input.limit,
      offset: (input.page - 1) * input.limit,
    });
    return {
      data: page.results.map((application) => toApplicationView(application)),
      meta: listMeta(input.page, input.limit, page.count),
    };
  });
