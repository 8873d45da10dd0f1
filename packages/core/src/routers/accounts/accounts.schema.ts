import { CurrencySchema, DEFAULT_BALANCE_HISTORY_DAYS, IdSchema, MAX_BALANCE_HISTORY_DAYS } from '@sandbank/schemas';
import { z } from 'zod';
import { CalendarDaySchema } from '../../lib/calendar-days.ts';
import { nameSchema } from '../../lib/text.ts';

const AccountNameSchema = nameSchema(100).meta({
  description: 'Trimmed, 1–100 characters; unique among your open accounts (case-insensitive)',
  example: 'Daily spending',
});

export const AccountIdInputSchema = z.strictObject({ id: IdSchema });

export const CreateAccountInputSchema = z.strictObject({
  name: AccountNameSchema,
  currency: CurrencySchema.optional().meta({
    description: 'The account’s currency for good; defaults to PLN. `GET /v1/currencies` lists the supported ones',
  }),
  cardFxMargin: z
    .string()
    .max(7)
    .regex(/^0(\.(0\d{0,4}|10{0,4}))?$/, 'Expected a fraction from 0 to 0.1 (10 %), at most 5 decimals, such as 0.02')
    .optional()
    .meta({
      description: 'Card FX margin: a fraction on top of the reference rate for card payments in another currency; default 0.02',
      example: '0.02',
    }),
});

export const CloseAccountInputSchema = z.strictObject({
  id: IdSchema,
  name: z.string().trim().min(1).max(100).meta({ description: "The account's name, typed again to confirm" }),
  password: z.string().min(1).max(128).meta({ description: "The user's password" }),
});

export const GetBalanceHistoryInputSchema = z.strictObject({
  id: IdSchema,
  from: CalendarDaySchema.optional().meta({
    description: `First day (YYYY-MM-DD, Europe/Warsaw), inclusive; default: ${DEFAULT_BALANCE_HISTORY_DAYS} days back from \`to\`, \`to\` included`,
    example: '2026-09-01',
  }),
  to: CalendarDaySchema.optional().meta({
    description: 'Last day (YYYY-MM-DD), inclusive; default, and upper bound, the world’s today',
    example: '2026-11-30',
  }),
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_BALANCE_HISTORY_DAYS)
    .optional()
    .meta({
      description: `Instead of \`from\`: this many days ending at \`to\` (1–${MAX_BALANCE_HISTORY_DAYS}; default ${DEFAULT_BALANCE_HISTORY_DAYS}), e.g. the last 30 days of the world`,
      example: 30,
    }),
});
