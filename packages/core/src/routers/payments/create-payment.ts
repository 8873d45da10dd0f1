import { dataOf, PaymentSchema } from '@sandbank/schemas';
import { createPayment } from '../../domain/payments/create-payment.ts';
import { AppError } from '../../errors.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CreatePaymentInputSchema, IdempotencyKeySchema } from './payments.schema.ts';

export const createPaymentProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/payments',
      tags: ['payments'],
      summary: 'Make a payment',
      description:
        'Between your own accounts (`to: { accountId }`): instant, both legs booked together (category transfer, each carrying counterpartTransactionId). To an IBAN (`to: { iban, name }`): over elixir, express_elixir, sepa or sepa_instant, with ISO 20022 statuses on the clearing calendar (docs/concepts/payments.md). A payment the bank refuses (insufficient funds AM04, a test IBAN, a limit) is still created: 201 with status RJCT and statusReason. Send an `Idempotency-Key` header: the same key with the same body answers 200 with the same payment; with another body, 409 IDEMPOTENCY_CONFLICT.',
      successDescription: 'The payment (200 when an Idempotency-Key replay)',
    },
    successStatus: 201,
    errorCodes: ['NOT_FOUND', 'ACCOUNT_CLOSED', 'IDEMPOTENCY_CONFLICT', 'SCHEME_UNAVAILABLE'],
  })
  .input(CreatePaymentInputSchema)
  .output(dataOf(PaymentSchema))
  .mutation(async ({ ctx, input }) => {
    const key = IdempotencyKeySchema.safeParse(ctx.idempotencyKey);
    if (!key.success) {
      const message = 'Expected 1–255 visible ASCII characters';
      throw new AppError('VALIDATION_ERROR', `Invalid Idempotency-Key header: ${message}`, {
        details: [{ path: 'Idempotency-Key', message }],
      });
    }
    const { payment, replayed } = await createPayment(ctx.em, { userId: ctx.user.id, idempotencyKey: key.data, ...input });
    if (replayed) ctx.response.status = 200;
    return { data: payment };
  });
