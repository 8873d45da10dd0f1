/** Reading payments: one of the user's, or a page of them (newest first). */
import type { EntityManager } from '@sandbank/db';
import { type ListMeta, listMeta, type Payment, type PaymentStatus } from '@sandbank/schemas';
import { notFound } from '../../errors.ts';
import { toPayment } from '../../mappers/payment.ts';
import { selectPayment, selectPaymentPage } from './queries.ts';

export async function readPayment(
  em: EntityManager,
  { userId, paymentId }: { userId: string; paymentId: string },
): Promise<Payment> {
  const row = await selectPayment(em, { userId, paymentId });
  if (!row) throw notFound('Payment');
  return toPayment(row);
}

export interface ListPaymentsParams {
  userId: string;
  accountId?: string | undefined;
  status?: PaymentStatus | undefined;
  page: number;
  limit: number;
}

export async function listPayments(em: EntityManager, p: ListPaymentsParams): Promise<{ data: Payment[]; meta: ListMeta }> {
  const { rows, total } = await selectPaymentPage(em, {
    userId: p.userId,
    accountId: p.accountId,
    status: p.status,
    limit: p.limit,
    offset: (p.page - 1) * p.limit,
  });
  return { data: rows.map(toPayment), meta: listMeta(p.page, p.limit, total) };
}
