import { AccountSchema, dataOf } from '@sandbank/schemas';
import { closeAccount } from '../../domain/accounts/accounts.ts';
import { guardPasswordAttempts } from '../../domain/auth/password-guard.ts';
import { toAccount } from '../../mappers/account.ts';
import { byIp, rateLimit } from '../../protection/rate-limit-middleware.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CloseAccountInputSchema } from './accounts.schema.ts';

export const closeAccountProcedure = protectedProcedure
  .use(rateLimit('auth', byIp))
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/accounts/{id}/close',
      tags: ['accounts'],
      summary: 'Close an account',
      description:
        "Confirm with the account's name (422 CONFIRMATION_MISMATCH) and your password (403 INVALID_PASSWORD). The balance must be 0 (409 BALANCE_NOT_ZERO). A closed account takes no transactions; its history stays readable. Password failures count like failed logins (429 RATE_LIMITED after too many).",
    },
    errorCodes: ['INVALID_PASSWORD', 'NOT_FOUND', 'ACCOUNT_CLOSED', 'BALANCE_NOT_ZERO', 'CONFIRMATION_MISMATCH', 'RATE_LIMITED'],
  })
  .input(CloseAccountInputSchema)
  .output(dataOf(AccountSchema))
  .mutation(async ({ ctx, input }) => {
    const attempt = { subject: `user:${ctx.user.id}`, ip: ctx.ip, failureCode: 'INVALID_PASSWORD' as const };
    const account = await guardPasswordAttempts(ctx.deps.rateLimits, ctx.deps.config, attempt, () =>
      closeAccount(ctx.em, { userId: ctx.user.id, accountId: input.id, name: input.name, password: input.password }),
    );
    return { data: toAccount(account) };
  });
