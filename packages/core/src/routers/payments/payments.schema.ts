import {
  CurrencySchema,
  ExternalSchemeSchema,
  IdSchema,
  PageQuerySchema,
  PaymentStatusSchema,
  TimestampSchema,
} from '@sandbank/schemas';
import { z } from 'zod';
import { MAX_PAYMENT_AMOUNT } from '../../domain/payments/create-payment.ts';
import { exactJson } from '../../lib/exact-json.ts';
import { IbanSchema } from '../../lib/iban.ts';
import { nameSchema, textSchema } from '../../lib/text.ts';

/** ISO 20022 Max35Text, restricted to the characters SEPA allows in an EndToEndId. */
const EndToEndIdSchema = z
  .string()
  .max(35)
  .regex(/^[A-Za-z0-9/?:().,'+ -]{1,35}$/, "1–35 characters of A–Z a–z 0–9 / - ? : ( ) . , ' + and space")
  .meta({ description: 'EndToEndId (ISO 20022 Max35Text, SEPA characters); generated when omitted', example: 'INV-2026-0042' });

export const CreatePaymentInputSchema = z.strictObject({
  fromAccountId: IdSchema,
  to: z
    .union([
      z.strictObject({ accountId: IdSchema }),
      z.strictObject({
        iban: IbanSchema,
        name: nameSchema(140).meta({ description: "The creditor's name", example: 'Jan Kowalski' }),
      }),
    ])
    .meta({ description: '`{ accountId }`: another of your accounts (instant); `{ iban, name }`: anyone else, over a scheme' }),
  amount: exactJson(
    z
      .int()
      .min(1)
      .max(MAX_PAYMENT_AMOUNT)
      .meta({ description: "Minor units of the source account's currency, > 0", example: 120_00 }),
  ),
  currency: CurrencySchema.optional().meta({ description: "The source account's currency (default); any other is 400" }),
  description: textSchema(140)
    .optional()
    .meta({ description: 'Remittance information (≤ 140 characters)', example: 'Rent December' }),
  scheme: ExternalSchemeSchema.optional().meta({
    description:
      'To an IBAN only: elixir (PLN, sessions; PLN default), express_elixir (PLN, instant), sepa (EUR; EUR default), sepa_instant (EUR, instant)',
  }),
  requestedExecutionDate: z.iso
    .date()
    .optional()
    .meta({ description: 'A Warsaw day from today to a year ahead: the payment joins the first session on or after it' }),
  endToEndId: EndToEndIdSchema.optional(),
});

export const ListPaymentsInputSchema = z.strictObject({
  accountId: IdSchema.optional().meta({ description: 'Only payments from or to this account' }),
  status: PaymentStatusSchema.optional(),
  ...PageQuerySchema,
});

export const PaymentIdInputSchema = z.strictObject({ id: IdSchema });

/** The `Idempotency-Key` header: 1–255 visible ASCII characters. */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Expected 1–255 visible ASCII characters')
  .optional();

const DaySchema = z.iso.date().refine((day) => day >= '1970-01-01' && day <= '9000-12-31', 'Must be a day from 1970 to 9000');

export const CalendarInputSchema = z.strictObject({
  from: DaySchema.optional().meta({ description: 'First Warsaw day (YYYY-MM-DD); default: the world’s today' }),
  to: DaySchema.optional().meta({ description: 'Last Warsaw day, inclusive; default: from + 13 days; at most from + 91' }),
  scheme: z.enum(['elixir', 'sepa']).optional().meta({ description: 'One scheme; default both' }),
});

export const CalendarOutputSchema = z.object({
  data: z.array(
    z
      .object({
        scheme: z.enum(['elixir', 'sepa']),
        day: z.iso.date().meta({ description: 'The business day (Warsaw) the session belongs to' }),
        cutoffAt: TimestampSchema.meta({ description: 'The last instant a payment joins it' }),
        sessionAt: TimestampSchema.meta({ description: 'Its payments go into clearing (ACSP)' }),
        settlesAt: TimestampSchema.meta({ description: 'Its payments settle (ACSC)' }),
      })
      .meta({ id: 'ClearingSession' }),
  ),
});

export const ReasonCodeInputSchema = z.strictObject({
  id: IdSchema,
  reasonCode: z
    .string()
    .max(4)
    .regex(/^[A-Z0-9]{4}$/, 'An ISO 20022 reason code: 4 capital letters or digits')
    .meta({ description: 'ISO 20022 ExternalStatusReason1Code / ExternalReturnReason1Code', example: 'AC04' }),
});

export const IncomingPaymentInputSchema = z.strictObject({
  accountId: IdSchema,
  amount: exactJson(z.int().min(1).max(MAX_PAYMENT_AMOUNT).meta({ description: 'Minor units, > 0', example: 250_00 })),
  currency: CurrencySchema.optional().meta({ description: "The account's currency (default); any other is 400" }),
  debtorName: nameSchema(140).meta({ example: 'ACME sp. z o.o.' }),
  debtorIban: IbanSchema,
  scheme: ExternalSchemeSchema.optional().meta({ description: 'Default by currency: PLN elixir, EUR sepa' }),
  description: textSchema(140).optional().meta({ example: 'Invoice 2026/11/42' }),
  endToEndId: EndToEndIdSchema.optional(),
});
