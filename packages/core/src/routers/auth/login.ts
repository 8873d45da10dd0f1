import { guardPasswordAttempts } from '../../domain/auth/password-guard.ts';
import { login } from '../../domain/auth/users.ts';
import { toUser } from '../../mappers/user.ts';
import { byIp, rateLimit } from '../../protection/rate-limit-middleware.ts';
import { publicProcedure } from '../../trpc.ts';
import { AuthOutputSchema, CredentialsInputSchema } from './auth.schema.ts';

export const loginProcedure = publicProcedure
  .use(rateLimit('auth', byIp))
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/auth/login',
      tags: ['auth'],
      summary: 'Log in',
      description:
        'Starts a session. A wrong e-mail and a wrong password both answer 401 INVALID_CREDENTIALS. ' +
        'Limited per client IP (RATE_LIMIT_AUTH); after LOGIN_MAX_CONSECUTIVE_FAILS failures for one e-mail from one IP, ' +
        'or LOGIN_MAX_FAILS_PER_IP_PER_DAY failures from one IP, it answers 429 RATE_LIMITED until Retry-After.',
      protect: false,
    },
    errorCodes: ['INVALID_CREDENTIALS'],
  })
  .input(CredentialsInputSchema)
  .output(AuthOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const attempt = { subject: input.email, ip: ctx.ip };
    const { user, session } = await guardPasswordAttempts(ctx.deps.rateLimits, ctx.deps.config, attempt, () =>
      login(ctx.em, ctx.deps, input),
    );
    return { data: { user: toUser(user), ...session } };
  });
