import { dataOf, UserSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { getUser } from '../../domain/auth/users.ts';
import { toUser } from '../../mappers/user.ts';
import { protectedProcedure } from '../../trpc.ts';

export const meProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/auth/me',
      tags: ['auth'],
      summary: 'The current user',
      description: 'Returns the user of the access token.',
    },
  })
  .input(z.strictObject({}).optional())
  .output(dataOf(UserSchema))
  .query(async ({ ctx }) => ({ data: toUser(await getUser(ctx.em, ctx.user.id)) }));
