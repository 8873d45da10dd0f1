import { dataOf } from '@sandbank/schemas';
import { z } from 'zod';
import { removeApplication } from '../../domain/enablebanking/applications.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ApplicationSchema, toApplicationView } from './application.schema.ts';

export const removeApplicationProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/enablebanking/applications/{id}',
      tags: ['integrations'],
      summary: 'Remove an Enable Banking application',
      description:
        'Its JWTs stop working at once (401 UNAUTHORIZED_ACCESS on the face) and its authorizations and sessions are removed with it. Another user’s application, or one removed already, is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: z.uuid() }))
  .output(dataOf(ApplicationSchema))
  .mutation(async ({ ctx, input }) => ({
    data: toApplicationView(await removeApplication(ctx.em, { userId: ctx.user.id, id: input.id })),
  }));
