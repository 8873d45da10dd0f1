import { CategorySchema, dataOf, IdSchema, ScheduleRunSchema, ScheduleSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { MAX_AMOUNT } from '../../domain/simulations/simulate-transaction.ts';
import { IsoDurationSchema } from '../../lib/duration.ts';
import { exactJson } from '../../lib/exact-json.ts';
import { StandingOrderPaymentSchema } from '../../lib/iban.ts';
import { textSchema } from '../../lib/text.ts';
import { InstantSchema } from '../../lib/timestamps.ts';

export const CreateScheduleInputSchema = z.strictObject({
  id: IdSchema.meta({ description: 'The account' }),
  amount: exactJson(
    z
      .int()
      .min(-MAX_AMOUNT)
      .max(MAX_AMOUNT)
      .refine((amount) => amount !== 0, 'Must not be zero'),
  ).meta({ description: 'Minor units of each run: positive credits, negative debits', example: -250_000 }),
  description: textSchema(500).meta({ example: 'Rent' }),
  merchant: textSchema(200).optional(),
  category: CategorySchema.optional(),
  rrule: z.string().min(1).max(500).meta({
    description: 'RFC 5545 recurrence: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY with BYDAY, BYMONTHDAY, COUNT, UNTIL…',
    example: 'FREQ=MONTHLY;BYMONTHDAY=1',
  }),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'IANA zone of the occurrences; default Europe/Warsaw', example: 'Europe/Warsaw' }),
  startAt: InstantSchema.optional().meta({
    description:
      'The first possible occurrence, which also gives each run its time of day; default now. Up to two years back: past occurrences fire at once.',
    example: '2026-12-01T09:00:00+01:00',
  }),
  status: z.enum(['posted', 'pending']).optional().meta({ description: 'How each run books; default posted' }),
  settleAfter: IsoDurationSchema.optional().meta({
    description: 'Pending runs only: each posts by itself this long after its due time (an ISO 8601 duration, at most P100Y)',
  }),
  payment: StandingOrderPaymentSchema.optional(),
});

export const ScheduleIdInputSchema = z.strictObject({ id: IdSchema });

export const ListScheduleRunsInputSchema = z.strictObject({
  id: IdSchema,
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: 'Runs per page, newest first' }),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'Only runs with n below this (the previous page’s last n)' }),
});

export const ScheduleOutputSchema = dataOf(ScheduleSchema);
export const SchedulesOutputSchema = dataOf(z.array(ScheduleSchema));
export const ScheduleRunsOutputSchema = dataOf(z.array(ScheduleRunSchema));
