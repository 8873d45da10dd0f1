import { CurrencySchema, IdSchema, PaymentSchema, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { EB_PAYMENT_STATUSES, ebPaymentStatusOf, type PaymentRequest } from '../../domain/enablebanking/payments.ts';

/** An Enable Banking payment request as the consent page shows it (and as it was decided). */
export const EnablebankingPaymentSchema = z
  .object({
    id: z.uuid(),
    application: z.object({ id: z.uuid(), name: z.string() }),
    aspsp: z.object({ name: z.string(), country: z.string() }),
    paymentType: z.string().meta({ description: 'Enable Banking’s payment_type: SEPA, INST_SEPA or DOMESTIC' }),
    amount: z.number().int().meta({ description: 'Minor units of `currency`' }),
    currency: CurrencySchema,
    creditor: z.object({ name: z.string(), iban: z.string() }),
    remittance: z.string(),
    debtorAccountId: IdSchema.nullable().meta({
      description: 'The account the app named (or the owner picked); null: the owner picks',
    }),
    redirectUrl: z.string(),
    status: z.enum(['pending', 'authorised', 'refused']).meta({
      description:
        '`pending` until the owner decides; `authorised` (then `payment` is the section-19 payment it became) or `refused`',
    }),
    ebStatus: z.enum(EB_PAYMENT_STATUSES).meta({
      description:
        'What the app reads on the face (`GET /payments/{id}`’s `status`): PDNG until decided, CNCL when refused, then the section-19 payment’s ISO 20022 status',
    }),
    payment: PaymentSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'EnablebankingPayment' });

export const toEnablebankingPayment = (request: PaymentRequest): z.infer<typeof EnablebankingPaymentSchema> => ({
  id: request.id,
  application: { id: request.applicationId, name: request.applicationName },
  aspsp: request.aspsp,
  paymentType: request.paymentType,
  amount: request.amount,
  currency: request.currency as z.infer<typeof CurrencySchema>,
  creditor: request.creditor,
  remittance: request.remittance,
  debtorAccountId: request.debtorAccountId,
  redirectUrl: request.redirectUrl,
  status: request.status,
  ebStatus: ebPaymentStatusOf(request).status,
  payment: request.payment,
  createdAt: request.createdAt.toISOString(),
});
