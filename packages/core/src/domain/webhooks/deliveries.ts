/** A webhook's deliveries with their attempts, and redelivery of one of them. */
import { Delivery, DeliveryAttempt, type EntityManager } from '@sandbank/db';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey, JOB_MAX_ATTEMPTS } from '@sandbank/webhooks';
import { AppError, notFound } from '../../errors.ts';
import { getOwnedWebhook } from './webhooks.ts';

export interface DeliveryWithAttempts {
  delivery: Delivery;
  attempts: DeliveryAttempt[];
}

export interface ListDeliveriesInput {
  userId: string;
  webhookId: string;
  page: number;
  limit: number;
}

/** Newest first, each with every attempt (oldest first). */
export async function listDeliveries(em: EntityManager, { userId, webhookId, page, limit }: ListDeliveriesInput) {
  await getOwnedWebhook(em, userId, webhookId);
  const [deliveries, total] = await em.findAndCount(
    Delivery,
    { webhook: webhookId },
    { populate: ['event'], orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset: (page - 1) * limit },
  );
  const attempts = await attemptsOf(em, deliveries);
  return { items: deliveries.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] })), total };
}

/**
 * Sends the delivery's event again, now, with the same idempotency key (the event id), starting
 * a fresh cycle of the retry schedule. A retry that was waiting is replaced, not doubled: every
 * job of a delivery shares one job key.
 */
export async function redeliver(
  em: EntityManager,
  { userId, webhookId, deliveryId }: { userId: string; webhookId: string; deliveryId: string },
): Promise<DeliveryWithAttempts> {
  const webhook = await getOwnedWebhook(em, userId, webhookId);
  const delivery = await em.findOne(Delivery, { id: deliveryId, webhook: webhook.id }, { populate: ['event'] });
  if (!delivery) throw notFound('Delivery');
  if (webhook.status !== 'active') {
    throw new AppError('CONFLICT', 'The webhook is disabled; register it again to receive deliveries');
  }
  const reset = { status: 'pending' as const, nextAttemptAt: new Date(), completedAt: null, updatedAt: new Date() };
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(Delivery, { id: delivery.id }, reset);
    await tx.execute(
      `select graphile_worker.add_job(?, json_build_object('deliveryId', ?::uuid, 'attempt', 1), job_key => ?, max_attempts => ?)`,
      [DELIVER_WEBHOOK_TASK, delivery.id, deliveryJobKey(delivery.id), JOB_MAX_ATTEMPTS],
    );
  });
  Object.assign(delivery, reset);
  return { delivery, attempts: (await attemptsOf(em, [delivery])).get(delivery.id) ?? [] };
}

async function attemptsOf(em: EntityManager, deliveries: readonly Delivery[]): Promise<Map<string, DeliveryAttempt[]>> {
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  if (deliveries.length === 0) return byDelivery;
  const attempts = await em.find(
    DeliveryAttempt,
    { delivery: { $in: deliveries.map((delivery) => delivery.id) } },
    { orderBy: { attempt: 'asc', startedAt: 'asc' } },
  );
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery.id) ?? [];
    list.push(attempt);
    byDelivery.set(attempt.delivery.id, list);
  }
  return byDelivery;
}
