import { IdSchema, listOf, PageQuerySchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { readTransactionList } from '../../domain/transactions/transaction-list-cache.ts';
import { notFound } from '../../errors.ts';
import { DayOrInstantSchema, toDateRange } from '../../lib/date-range.ts';
import { textSchema } from '../../lib/text.ts';
import { protectedProcedure, readsFromReplica } from '../../trpc.ts';
import { StatusFilterSchema } from './status-filter.schema.ts';

export const listAccountTransactionsProcedure = protectedProcedure
  .use(readsFromReplica)
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/accounts/{id}/transactions',
      tags: ['transactions'],
      summary: "An account's transactions",
      description:
        'Newest first (date, then id). `from`/`to` take YYYY-MM-DD (the whole UTC day, inclusive) or an ISO timestamp (inclusive); `from` after `to` is 400. Pending and posted by default; `status` picks one status or all; `q` searches description, merchant and amount. Closed accounts stay readable.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(
    z.strictObject({
      id: IdSchema,
      from: DayOrInstantSchema.optional(),
      to: DayOrInstantSchema.optional(),
      status: StatusFilterSchema,
      q: textSchema(100).trim().min(1).optional().meta({
        description:
          'Search: transactions whose description or merchant contains this text (any case), or whose amount is this many złoty (`12,50`, either sign)',
        example: 'biedronka',
      }),
      ...PageQuerySchema,
    }),
  )
  .output(listOf(TransactionSchema))
  .query(async ({ ctx, input }) => {
    const range = toDateRange(input.from, input.to);
    // The account counts its pending and posted rows: the default view of the whole history needs no count(*).
    const unfiltered = !range.from && !range.before && input.status === undefined && input.q === undefined;
    const list = await readTransactionList(
      ctx.em,
      {
        scope: { userId: ctx.user.id, accountId: input.id },
        range,
        page: input.page,
        limit: input.limit,
        status: input.status,
        ...(input.q === undefined ? {} : { search: input.q }),
        total: unfiltered ? 'counter' : 'count',
      },
      ctx.deps.transactionLists,
    );
    if (!list) throw notFound('Account');
    return list;
  });
