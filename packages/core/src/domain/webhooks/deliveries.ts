/** A webhook's deliveries with their attempts, and redelivery of one of them. */
import { DeliveryAttemptEntity, DeliveryEntity, type EntityManager } from '@sandbank/db';
import { deliveryJob } from '@sandbank/webhooks';
import { AppError, notFound } from '../../errors.ts';
import { enqueueDeliveryJobs, renewDelivery } from './queries.ts';
import { getOwnedWebhook } from './webhooks.ts';

export interface DeliveryWithAttempts {
  delivery: DeliveryEntity;
  attempts: DeliveryAttemptEntity[];
}

export interface ListDeliveriesParams {
  userId: string;
  webhookId: string;
  page: number;
  limit: number;
}

/** Newest first, each with every attempt (oldest first). */
export async function listDeliveries(em: EntityManager, { userId, webhookId, page, limit }: ListDeliveriesParams) {
  await getOwnedWebhook(em, userId, webhookId);
  const [deliveries, total] = await em.findAndCount(
    DeliveryEntity,
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
  const delivery = await em.findOne(DeliveryEntity, { id: deliveryId, webhook: webhook.id }, { populate: ['event'] });
  if (!delivery) throw notFound('Delivery');
  if (webhook.status !== 'active') {
    throw new AppError('CONFLICT', 'The webhook is disabled; register it again to receive deliveries');
  }
  // A new cycle: an attempt still in flight from the old one is recorded but cannot push this one back.
  const [renewed] = await em.transactional(async (tx) => {
    const rows = await renewDelivery(tx, delivery.id);
    const cycle = rows[0]?.cycle ?? 1;
    await enqueueDeliveryJobs(tx, [deliveryJob({ deliveryId: delivery.id, cycle, userId })]);
    return rows;
  });
  Object.assign(delivery, {
    status: 'pending' as const,
    nextAttemptAt: renewed ? new Date(renewed.next_attempt_at) : new Date(),
    completedAt: null,
    cycle: renewed?.cycle ?? delivery.cycle,
  });
  return { delivery, attempts: (await attemptsOf(em, [delivery])).get(delivery.id) ?? [] };
}

async function attemptsOf(
  em: EntityManager,
  deliveries: readonly DeliveryEntity[],
): Promise<Map<string, DeliveryAttemptEntity[]>> {
  const byDelivery = new Map<string, DeliveryAttemptEntity[]>();
  if (deliveries.length === 0) return byDelivery;
  const attempts = await em.find(
    DeliveryAttemptEntity,
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
