import { dataOf } from '@sandbank/schemas';
import { z } from 'zod';
import { revokeFamily } from '../../domain/auth/sessions.ts';
import { protectedProcedure } from '../../trpc.ts';

export const logoutProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/auth/logout',
      tags: ['auth'],
      summary: 'Log out',
      description: 'Revokes the session family of the access token: its refresh tokens stop working.',
    },
  })
  .input(z.strictObject({}).optional())
  .output(dataOf(z.object({ revoked: z.literal(true) })))
  .mutation(async ({ ctx }) => {
    await revokeFamily(ctx.em, ctx.user.sessionId);
    return { data: { revoked: true as const } };
  });
