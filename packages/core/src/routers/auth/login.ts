import { login as loginUser } from '../../domain/auth/users.ts';
import { toUser } from '../../mappers/user.ts';
import { publicProcedure } from '../../trpc.ts';
import { AuthOutput, CredentialsInput } from './auth.schema.ts';

export const login = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/auth/login',
      tags: ['auth'],
      summary: 'Log in',
      description: 'Starts a session. A wrong e-mail and a wrong password both answer 401 INVALID_CREDENTIALS.',
      protect: false,
    },
  })
  .input(CredentialsInput)
  .output(AuthOutput)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await loginUser(ctx.em, ctx.deps, input);
    return { data: { user: toUser(user), ...session } };
  });
