import { registerUser } from '../../domain/auth/users.ts';
import { toUser } from '../../mappers/user.ts';
import { byIp, rateLimit } from '../../protection/rate-limit-middleware.ts';
import { publicProcedure } from '../../trpc.ts';
import { AuthOutputSchema, CredentialsInputSchema } from './auth.schema.ts';

export const registerProcedure = publicProcedure
  .use(rateLimit('auth', byIp))
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/auth/register',
      tags: ['auth'],
      summary: 'Register a user',
      description:
        'Creates a user and starts a session. The e-mail is trimmed and lower-cased; a taken e-mail is 409 EMAIL_TAKEN. ' +
        'Limited per client IP (RATE_LIMIT_AUTH).',
      protect: false,
      successDescription: 'The new user and a session',
    },
    successStatus: 201,
    errorCodes: ['EMAIL_TAKEN'],
  })
  .input(CredentialsInputSchema)
  .output(AuthOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await registerUser(ctx.em, ctx.deps, input);
    return { data: { user: toUser(user), ...session } };
  });
