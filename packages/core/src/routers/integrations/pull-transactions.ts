import { listMeta, listOf, PageQuerySchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { pullRange } from '../../domain/integrations/pull-range.ts';
import { resolveOwner } from '../../domain/integrations/resolve-owner.ts';
import { listTransactions } from '../../domain/transactions/list-transactions.ts';
import { DaySchema } from '../../lib/date-range.ts';
import { byApiKey, rateLimit } from '../../protection/rate-limit.ts';
import { apiKeyProcedure } from '../../trpc.ts';

const PullTransactionsInput = z.strictObject({
  owner: z.string().min(1).max(512).meta({
    description:
      'The user id, the full e-mail (case-insensitive) or its local part (`jan.kowalski+budget`); URL-encode `@` and `+` as you like',
    example: 'jan.kowalski+budget',
  }),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
  ...PageQuerySchema,
});

export const pullTransactions = apiKeyProcedure
  .use(rateLimit('apiKey', byApiKey))
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/owner/{owner}/transactions',
      tags: ['integrations'],
      summary: 'Pull an owner’s transactions',
      description:
        'For external systems, with `Authorization: Bearer <API_KEY>` (a user’s `sbk_` key or a partner key; user access tokens are refused). Every account of the owner, closed ones included, newest first. `from`/`to` are whole UTC days (YYYY-MM-DD, inclusive); without `from` the range is the 90 days ending at `to` (default: today), without `to` it has no upper bound. A user key reads only its own user (anything else is 404); a local part shared by several users is 409 CONFLICT for partner keys. Limited per API key (RATE_LIMIT_API_KEY).',
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(PullTransactionsInput)
  .output(listOf(TransactionSchema))
  .query(async ({ ctx, input }) => {
    const userId = await resolveOwner(ctx.em, ctx.apiKey, input.owner);
    const range = pullRange(input.from, input.to);
    const { page, limit } = input;
    const { items, total } = await listTransactions(ctx.em, { scope: { userId }, range, page, limit });
    return { data: items, meta: listMeta(page, limit, total) };
  });
