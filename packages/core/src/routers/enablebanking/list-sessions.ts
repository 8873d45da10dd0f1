import { listMeta, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { listSessions } from '../../domain/enablebanking/sessions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { EnablebankingSessionSchema, toSessionView } from './session.schema.ts';

export const listSessionsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/enablebanking/applications/{id}/sessions',
      tags: ['integrations'],
      summary: 'List an Enable Banking application’s sessions',
      description:
        'The sessions the application made through the face (`POST /sessions`), newest first: status on the world’s clock, the accounts each reads, until when. Another user’s application is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: z.uuid(), ...PageQuerySchema }))
  .output(listOf(EnablebankingSessionSchema))
  .query(async ({ ctx, input }) => {
    const page = await listSessions(ctx.em, {
      userId: ctx.user.id,
      applicationId: input.id,
      limit: input.limit,
      offset: (input.page - 1) * input.limit,
    });
    return { data: page.results.map(toSessionView), meta: listMeta(input.page, input.limit, page.count) };
  });
