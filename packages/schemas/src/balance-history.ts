/**
 * An account's booked balance at the end of each day (docs/concepts/lifecycle.md, "Balance history"): the
 * series a balance-over-time chart draws. Days are local days in Europe/Warsaw on the world's clock,
 * like a statement's; a transaction counts on the day it posted.
 */
import { z } from 'zod';
import { CurrencySchema, IdSchema, MinorUnitsSchema } from './format.ts';

/** The longest range one request may ask for, in days (both ends counted). */
export const MAX_BALANCE_HISTORY_DAYS = 366;
/** The range when none is asked for: the last 90 days of the world, today included. */
export const DEFAULT_BALANCE_HISTORY_DAYS = 90;

export const BalancePointSchema = z
  .object({
    date: z.iso.date().meta({ description: 'A local day (Europe/Warsaw) of the world', example: '2026-11-21' }),
    balance: MinorUnitsSchema.meta({
      description: 'The booked balance at the end of that day (today: now): Σ amounts of the transactions posted by then',
    }),
  })
  .meta({ id: 'BalancePoint' });

export const BalanceHistorySchema = z
  .object({
    accountId: IdSchema,
    currency: CurrencySchema,
    timeZone: z.literal('Europe/Warsaw').meta({ description: 'The zone the days are local to' }),
    from: z.iso.date().meta({ description: 'The first day, inclusive' }),
    to: z.iso.date().meta({ description: 'The last day, inclusive; never after the world’s today' }),
    points: z
      .array(BalancePointSchema)
      .meta({ description: 'One per day from `from` to `to`, oldest first, days without activity included' }),
    balance: MinorUnitsSchema.meta({ description: 'The account’s booked balance now (the last point when `to` is today)' }),
    heldAmount: MinorUnitsSchema.meta({ description: 'Held by pending debits now; pending transactions are not in the points' }),
    availableBalance: MinorUnitsSchema.meta({ description: 'balance − heldAmount, now' }),
  })
  .meta({ id: 'BalanceHistory' });
export type BalanceHistory = z.infer<typeof BalanceHistorySchema>;
