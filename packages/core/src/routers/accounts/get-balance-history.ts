import { BalanceHistorySchema, dataOf, MAX_BALANCE_HISTORY_DAYS } from '@sandbank/schemas';
import { getBalanceHistory } from '../../domain/accounts/balance-history.ts';
import { protectedProcedure, readsFromReplica } from '../../trpc.ts';
import { GetBalanceHistoryInputSchema } from './accounts.schema.ts';

export const getBalanceHistoryProcedure = protectedProcedure
  .use(readsFromReplica)
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/accounts/{id}/balance-history',
      tags: ['accounts'],
      summary: 'Balance at the end of each day',
      description: `The account's booked balance at the end of each local day (Europe/Warsaw, on the world's clock) from \`from\` to \`to\`, days without activity included: what a balance chart draws. A transaction counts on the day it posted; pending ones are not in the points (their holds are in \`heldAmount\`, now), voided ones never. Today's point is the balance now, so when the range ends today the last point equals \`balance\`. \`days\` instead of \`from\` counts back from \`to\` (both given is 400). At most ${MAX_BALANCE_HISTORY_DAYS} days (422 PERIOD_TOO_LONG); \`from\` after \`to\` is 400; \`to\` after today is read as today. Another user's account is 404.`,
    },
    errorCodes: ['NOT_FOUND', 'PERIOD_TOO_LONG'],
  })
  .input(GetBalanceHistoryInputSchema)
  .output(dataOf(BalanceHistorySchema))
  .query(async ({ ctx, input }) => ({
    data: await getBalanceHistory(ctx.em, {
      userId: ctx.user.id,
      accountId: input.id,
      from: input.from,
      to: input.to,
      days: input.days,
    }),
  }));
