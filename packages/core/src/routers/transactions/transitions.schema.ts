import { CategorySchema, dataOf, IdSchema, MinorUnitsSchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { MAX_AMOUNT } from '../../domain/simulations/simulate-transaction.ts';
import { exactJson } from '../../lib/exact-json.ts';
import { textSchema } from '../../lib/text.ts';

const IfVersionSchema = exactJson(z.int().min(1)).optional().meta({
  description:
    'Refuse with 409 VERSION_CONFLICT unless the transaction is at this version, or one past it through this same step — a retry whose answer was lost, or the clock having settled or expired it first: 200, as it is',
});

export const PostTransactionInputSchema = z.strictObject({
  id: IdSchema,
  amount: exactJson(z.int().min(-MAX_AMOUNT).max(MAX_AMOUNT))
    .optional()
    .meta({ description: 'The final amount, same sign as the pending one (e.g. with a tip); default: unchanged' }),
  ifVersion: IfVersionSchema,
});

export const VoidTransactionInputSchema = z.strictObject({ id: IdSchema, ifVersion: IfVersionSchema });

export const ReverseTransactionInputSchema = z.strictObject({
  id: IdSchema,
  amount: exactJson(z.int().min(1).max(MAX_AMOUNT))
    .optional()
    .meta({ description: 'How much to give back, as a positive magnitude; default: all that is left' }),
  description: textSchema(500).optional().meta({ description: "Default: 'Reversal: <original description>'" }),
  externalTxnId: z
    .string()
    .max(128)
    .regex(/^[\x21-\x7e]{1,128}$/, 'Expected 1–128 visible ASCII characters')
    .optional()
    .meta({ description: 'Idempotency key of the reversal; default rev_<id> (full) or rev_<id>_<amount> (partial)' }),
  ifVersion: IfVersionSchema.meta({
    description:
      "Refuse with 409 VERSION_CONFLICT unless the original is at this version (a reversal is a new transaction: it leaves the original's version as it is)",
  }),
});

export const PatchTransactionInputSchema = z.strictObject({
  id: IdSchema,
  description: textSchema(500).optional(),
  merchant: textSchema(200).nullable().optional().meta({ description: 'null clears it' }),
  category: CategorySchema.nullable().optional().meta({ description: 'null clears it' }),
  ifVersion: IfVersionSchema,
});

export const TransitionOutputSchema = dataOf(
  z.object({
    transaction: TransactionSchema,
    balance: MinorUnitsSchema.meta({ description: "The account's balance after it" }),
    availableBalance: MinorUnitsSchema.meta({ description: 'balance − held pending debits, after it' }),
  }),
).meta({ id: 'TransitionResult' });
