/**
 * Payments (docs/concepts/payments.md): money a user sends, between their own accounts
 * (`to: { accountId }`, scheme `internal`) or to an IBAN outside the world (`to: { iban, name }`)
 * over a clearing scheme, with ISO 20022 statuses.
 */
import { z } from 'zod';
import { CurrencySchema, IdSchema, MinorUnitsSchema, TimestampSchema } from './format.ts';

/** ISO 20022 ExternalPaymentTransactionStatus1Code values a payment passes through. */
export const PAYMENT_STATUSES = ['RCVD', 'ACTC', 'ACSP', 'ACSC', 'RJCT', 'CANC'] as const;
export const PaymentStatusSchema = z.enum(PAYMENT_STATUSES).meta({
  description:
    'ISO 20022: RCVD received → ACTC accepted (the debit is held) → ACSP in a clearing session → ACSC settled (the debit posted); RJCT rejected (statusReason says why, the hold released); CANC cancelled before its session',
});
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/** Clearing schemes; `internal` is a transfer between two accounts of the same world. */
export const PAYMENT_SCHEMES = ['internal', 'elixir', 'express_elixir', 'sepa', 'sepa_instant'] as const;
export const PaymentSchemeSchema = z.enum(PAYMENT_SCHEMES);
export type PaymentScheme = z.infer<typeof PaymentSchemeSchema>;
/** The schemes a caller may ask for by name (`internal` follows from `to: { accountId }`). */
export const EXTERNAL_SCHEMES = ['elixir', 'express_elixir', 'sepa', 'sepa_instant'] as const;
export const ExternalSchemeSchema = z.enum(EXTERNAL_SCHEMES);
export type ExternalScheme = z.infer<typeof ExternalSchemeSchema>;

export const PaymentReasonSchema = z
  .object({
    code: z.string().meta({ description: 'ISO 20022 ExternalStatusReason1Code / ExternalReturnReason1Code', example: 'AM04' }),
    message: z.string().meta({ example: 'Insufficient funds' }),
  })
  .meta({ id: 'PaymentReason' });
export type PaymentReason = z.infer<typeof PaymentReasonSchema>;

export const PaymentDestinationSchema = z
  .union([
    z.object({ accountId: IdSchema }).meta({ description: 'An account of the same world' }),
    z.object({ iban: z.string(), name: z.string() }).meta({ description: 'Anyone else, by IBAN' }),
  ])
  .meta({ id: 'PaymentDestination' });
export type PaymentDestination = z.infer<typeof PaymentDestinationSchema>;

export const PaymentSchema = z
  .object({
    id: IdSchema,
    fromAccountId: IdSchema,
    to: PaymentDestinationSchema,
    amount: MinorUnitsSchema.meta({ description: "Positive, in the source account's currency", example: 120_00 }),
    currency: CurrencySchema,
    scheme: PaymentSchemeSchema,
    status: PaymentStatusSchema,
    statusReason: PaymentReasonSchema.nullable().meta({ description: 'Why it was rejected (RJCT only), else null' }),
    endToEndId: z.string().meta({ description: 'ISO 20022 EndToEndId (≤ 35 characters)', example: 'E2E-2026-0001' }),
    description: z.string(),
    requestedExecutionDate: z.iso
      .date()
      .nullable()
      .meta({ description: 'The day asked for (Warsaw), or null: as soon as possible' }),
    acceptedAt: TimestampSchema.nullable().meta({ description: 'When it was accepted (ACTC) and the debit held' }),
    settledAt: TimestampSchema.nullable().meta({ description: 'When it settled (ACSC) and the debit posted' }),
    returned: z
      .object({ reason: PaymentReasonSchema, at: TimestampSchema })
      .nullable()
      .meta({ description: 'A settled payment that came back: the reason and when (the credit is in transactionIds)' }),
    transactionIds: z
      .array(IdSchema)
      .meta({ description: 'Its transactions: the debit, the credit leg (own accounts), a return' }),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof PaymentSchema>;
