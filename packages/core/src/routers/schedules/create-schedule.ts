import { createSchedule } from '../../domain/schedules/schedules.ts';
import { toSchedule } from '../../mappers/schedule.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CreateScheduleInputSchema, ScheduleOutputSchema } from './schedules.schema.ts';

export const createScheduleProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/accounts/{id}/schedules',
      tags: ['schedules'],
      summary: 'Schedule a recurring transaction',
      description:
        'Each occurrence of the RFC 5545 rule (in `timezone`, keeping local wall time across DST) books a transaction when your clock reaches it — by an advance, or as wall time passes. Run n books with externalTxnId sch_<scheduleId>_<n>; a debit without funds fails that run (recorded) and the schedule goes on. With `payment`, a standing order: each run makes a payment of -amount to that IBAN over its scheme, dated at its due time, with the Idempotency-Key sch_<scheduleId>_<n> (one payment per run); a payment without funds is RJCT AM04 (the run’s failure) and the schedule goes on. A `startAt` in the past (at most two years back) backfills its occurrences before answering; while an advance of your world runs, that waits for it (up to 30 s, then 409 CLOCK_ADVANCING and nothing is created). Bounds: LIMIT_SCHEDULES_PER_ACCOUNT (default 20) schedules that are not ended per account, and a backfill of at most LIMIT_DUE_ITEMS_PER_REQUEST (default 1,000) past runs and settlements; beyond either, 422 LIMIT_EXCEEDED (with the count, for a backfill) and nothing is created.',
    },
    successStatus: 201,
    errorCodes: ['NOT_FOUND', 'ACCOUNT_CLOSED', 'CLOCK_ADVANCING', 'LIMIT_EXCEEDED'],
  })
  .input(CreateScheduleInputSchema)
  .output(ScheduleOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { id, ...rest } = input;
    const { limits } = ctx.deps.config;
    return { data: toSchedule(await createSchedule(ctx.em, { userId: ctx.user.id, accountId: id, ...rest, limits })) };
  });
