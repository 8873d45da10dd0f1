import { paymentCalendar } from '../../domain/payments/payment-calendar.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CalendarInputSchema, CalendarOutputSchema } from './payments.schema.ts';

export const getPaymentCalendarProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/payments/calendar',
      tags: ['payments'],
      summary: 'Clearing sessions',
      description:
        'The sessions of elixir (09:30, 13:30, 16:00 Warsaw on Polish business days, cut-off 30 minutes before) and sepa (cut-off 15:00 on TARGET days, settled 09:00 the next TARGET day) between two Warsaw days (default: the world’s today and 14 days on; at most 92 days). Instant schemes have no sessions.',
    },
  })
  .input(CalendarInputSchema)
  .output(CalendarOutputSchema)
  .query(async ({ ctx, input }) => ({ data: await paymentCalendar(ctx.em, { userId: ctx.user.id, ...input }) }));
