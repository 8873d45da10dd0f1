import { ClockSchema, dataOf, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { UnboundedIsoDurationSchema } from '../../lib/duration.ts';
import { InstantSchema } from '../../lib/timestamps.ts';

export const GetClockInputSchema = z.strictObject({});

export const AdvanceClockInputSchema = z
  .strictObject({
    by: UnboundedIsoDurationSchema.optional().meta({
      description: 'How far to move: a positive ISO 8601 duration (P1M, PT36H, P1Y2M3D); more than P2Y is 422 ADVANCE_TOO_LARGE',
      example: 'P1M',
    }),
    to: InstantSchema.optional().meta({
      description: 'Where to move: an instant, not before now',
      example: '2027-01-01T00:00:00Z',
    }),
  })
  .refine((input) => (input.by === undefined) !== (input.to === undefined), {
    message: 'Give exactly one of by and to',
    path: ['by'],
  });

export const ClockOutputSchema = dataOf(ClockSchema);

export const AdvanceClockOutputSchema = dataOf(
  z.object({
    from: TimestampSchema.meta({ description: "The world's now before the advance" }),
    now: TimestampSchema.meta({ description: "The world's now after it" }),
    fired: z.object({
      scheduled: z.int().meta({ description: 'Schedule occurrences that fired (booked or failed)' }),
      settled: z.int().meta({ description: 'Pending transactions that posted by themselves' }),
      expired: z.int().meta({ description: 'Pending transactions that expired' }),
      payments: z
        .int()
        .meta({ description: "Payments' steps on the clearing calendar (into a session, settled or rejected, returned)" }),
    }),
    events: z.int().meta({ description: 'Events written by what fired' }),
  }),
).meta({ id: 'AdvanceResult' });
