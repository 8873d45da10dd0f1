import { dataOf } from '@sandbank/schemas';
import { z } from 'zod';
import { refreshSession } from '../../domain/auth/sessions.ts';
import { publicProcedure } from '../../trpc.ts';
import { SessionSchema } from './auth.schema.ts';

export const refreshProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/auth/refresh',
      tags: ['auth'],
      summary: 'Refresh a session',
      description:
        'Exchanges a refresh token for a new pair. Each refresh token works once; presenting a used one revokes its whole session family.',
      protect: false,
    },
    errorCodes: ['UNAUTHENTICATED'],
  })
  .input(z.strictObject({ refreshToken: z.string().min(1).max(512) }))
  .output(dataOf(SessionSchema))
  .mutation(async ({ ctx, input }) => ({ data: await refreshSession(ctx.em, ctx.deps, input.refreshToken) }));
