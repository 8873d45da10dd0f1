import { listOf, PageQuerySchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { pullRange } from '../../domain/integrations/pull-range.ts';
import { resolveOwner } from '../../domain/integrations/resolve-owner.ts';
import { readTransactionList } from '../../domain/transactions/transaction-list-cache.ts';
import { notFound } from '../../errors.ts';
import { DaySchema } from '../../lib/date-range.ts';
import { byApiKey, rateLimit } from '../../protection/rate-limit-middleware.ts';
import { apiKeyProcedure, readsFromReplica } from '../../trpc.ts';
import { StatusFilterSchema } from '../transactions/status-filter.schema.ts';

/** `:owner` of the pull and sync endpoints (resolved by `resolveOwner`). */
export const OwnerParamSchema = z.string().min(1).max(512).meta({
  description:
    'The user id, the full e-mail (case-insensitive) or its local part (`jan.kowalski+budget`); URL-encode `@` and `+` as you like',
  example: 'jan.kowalski+budget',
});

const PullTransactionsInputSchema = z.strictObject({
  owner: OwnerParamSchema,
  from: DaySchema.optional(),
  to: DaySchema.optional(),
  status: StatusFilterSchema,
  ...PageQuerySchema,
});

export const pullTransactionsProcedure = apiKeyProcedure
  .use(rateLimit('apiKey', byApiKey))
  .use(readsFromReplica)
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/owner/{owner}/transactions',
      tags: ['integrations'],
      summary: 'Pull an owner’s transactions',
      description:
        'For external systems, with `Authorization: Bearer <API_KEY>` (a user’s `sbk_` key or a partner key; user access tokens are refused). Every account of the owner, closed ones included, newest first; pending and posted unless `status` says otherwise. `from`/`to` are whole UTC days (YYYY-MM-DD, inclusive); without `from` the range is the 90 days ending at `to` (default: today in the owner’s world, whose clock may run ahead), without `to` it has no upper bound. A user key reads only its own user (anything else is 404); a local part shared by several users is 409 CONFLICT for partner keys. Limited per API key (RATE_LIMIT_API_KEY).',
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(PullTransactionsInputSchema)
  .output(listOf(TransactionSchema))
  .query(async ({ ctx, input }) => {
    // The default window is the last 90 days of the owner's world, whose clock may run ahead.
    const owner = await resolveOwner(ctx.em, ctx.apiKey, input.owner);
    const { page, limit, status } = input;
    // The default view (pending and posted) is counted from the accounts' counters, not over the window.
    const list = await readTransactionList(
      ctx.em,
      {
        scope: { userId: owner.id },
        range: pullRange(input.from, input.to, owner.now),
        page,
        limit,
        status,
        total: status === undefined ? 'counter' : 'count',
      },
      ctx.deps.transactionLists,
    );
    if (!list) throw notFound('Owner'); // deleted since resolveOwner found it
    return list;
  });
