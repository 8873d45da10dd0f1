import { CategorySchema, CurrencySchema, dataOf, IdSchema, MinorUnitsSchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { MAX_ORIGINAL_AMOUNT } from '../../domain/currencies/card-payments.ts';
import { MAX_AMOUNT } from '../../domain/simulations/simulate-transaction.ts';
import { IsoDurationSchema } from '../../lib/duration.ts';
import { exactJson } from '../../lib/exact-json.ts';
import { textSchema } from '../../lib/text.ts';
import { InstantSchema } from '../../lib/timestamps.ts';

const EARLIEST_DATE = Date.UTC(1970, 0, 1);

export const SimulateTransactionInputSchema = z.strictObject({
  accountId: IdSchema,
  amount: exactJson(
    z
      .int()
      .min(-MAX_AMOUNT)
      .max(MAX_AMOUNT)
      .refine((amount) => amount !== 0, 'Must not be zero')
      .meta({
        description:
          'Minor units of the account’s currency: positive for a credit, negative for a debit; 0 < |amount| ≤ 10^12. Omitted: converted from originalAmount',
        example: 12_50,
      }),
  ).optional(),
  originalAmount: exactJson(
    z
      .int()
      .min(-MAX_ORIGINAL_AMOUNT)
      .max(MAX_ORIGINAL_AMOUNT)
      .refine((amount) => amount !== 0, 'Must not be zero')
      .meta({
        description:
          'A card payment in another currency: what the merchant charged, in minor units of originalCurrency, signed like amount (0 < |originalAmount| ≤ 10^15). Without amount it is converted at the world’s rate for the day plus the account’s cardFxMargin; with amount, amount / originalAmount is the rate',
        example: -2_500,
      }),
  ).optional(),
  originalCurrency: CurrencySchema.optional().meta({
    description: 'With originalAmount: the merchant’s currency, not the account’s',
  }),
  description: textSchema(500).optional().meta({ description: "Up to 500 characters; default ''", example: 'Coffee' }),
  externalTxnId: z
    .string()
    .max(128, 'At most 128 characters') // also documents the bound in OpenAPI (OWASP string limit)
    .regex(/^[\x21-\x7e]{1,128}$/, 'Expected 1–128 visible ASCII characters')
    .optional()
    .meta({
      description: 'Idempotency key per account; generated (sim_…) when omitted. The same key again returns the original.',
      example: 'bank-ref-2026-0001',
    }),
  date: InstantSchema.refine((date) => date.getTime() >= EARLIEST_DATE, 'Must not be before 1970-01-01')
    .optional()
    .meta({ description: 'When it happened; defaults to now. May lie in the past, not in the future.' }),
  currency: CurrencySchema.optional().meta({
    description:
      "The account's currency (default); any other is 400 VALIDATION_ERROR (a payment in another currency gives originalAmount and originalCurrency)",
  }),
  status: z
    .enum(['posted', 'pending'])
    .optional()
    .meta({ description: 'posted (default) moves the balance now; pending holds a debit until it posts or is voided' }),
  settleAfter: IsoDurationSchema.optional().meta({
    description: 'Pending only: posts by itself when the clock passes date + this (a positive ISO 8601 duration, at most P100Y)',
  }),
  expireAfter: IsoDurationSchema.optional().meta({
    description: 'Pending only: voids by itself (reason expired) at date + this (a positive ISO 8601 duration, at most P100Y)',
  }),
  merchant: textSchema(200).optional().meta({ description: 'Who was paid or paid you', example: 'Biedronka' }),
  category: CategorySchema.optional(),
});

export const SimulationOutputSchema = dataOf(
  z.object({
    transaction: TransactionSchema,
    balance: MinorUnitsSchema.meta({ description: "The account's balance after the transaction" }),
    availableBalance: MinorUnitsSchema.meta({ description: 'balance − held pending debits, after the transaction' }),
  }),
).meta({ id: 'SimulationResult' });
