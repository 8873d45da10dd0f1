/** Webhooks and deliveries in the API's shapes. The secret never leaves the database. */
import type { DeliveryAttemptEntity, DeliveryEntity, WebhookEntity } from '@sandbank/db';
import type { AttemptFault, Delivery, DeliveryAttempt, EventType, Webhook, WebhookFaults } from '@sandbank/schemas';

/** `overlapSeconds`: how long a rotated-out secret keeps signing (the config's WEBHOOK_SECRET_OVERLAP_HOURS). */
export const toWebhook = (webhook: WebhookEntity, overlapSeconds: number): Webhook => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events as EventType[],
  clientId: webhook.clientId,
  status: webhook.status,
  disabledReason: webhook.disabledReason ?? null,
  secretRotatedAt: webhook.secretRotatedAt?.toISOString() ?? null,
  secretOverlapEndsAt: webhook.secretRotatedAt
    ? new Date(webhook.secretRotatedAt.getTime() + overlapSeconds * 1000).toISOString()
    : null,
  faults: (webhook.faults as WebhookFaults | null | undefined) ?? null,
  createdAt: webhook.createdAt.toISOString(),
});

const toDeliveryAttempt = (attempt: DeliveryAttemptEntity): DeliveryAttempt => ({
  attempt: attempt.attempt,
  at: attempt.startedAt.toISOString(),
  statusCode: attempt.statusCode ?? null,
  durationMs: attempt.durationMs,
  error: attempt.error ?? null,
  nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null,
  faults: (attempt.faults ?? []) as AttemptFault[],
  request:
    attempt.requestUrl && attempt.requestHeaders && attempt.requestBody !== null && attempt.requestBody !== undefined
      ? { method: 'POST', url: attempt.requestUrl, httpHeaders: attempt.requestHeaders, body: attempt.requestBody }
      : null,
  response:
    attempt.responseStatus !== null && attempt.responseStatus !== undefined
      ? {
          statusCode: attempt.responseStatus,
          httpHeaders: attempt.responseHeaders ?? {},
          body: attempt.responseBody ?? '',
          bodyTruncated: attempt.responseBodyTruncated,
        }
      : null,
  exchangeRemovedAt: attempt.exchangeRemovedAt?.toISOString() ?? null,
});

/** `delivery.event` must be loaded (its type is part of the shape). */
export const toDelivery = (delivery: DeliveryEntity, attempts: readonly DeliveryAttemptEntity[]): Delivery => ({
  id: delivery.id,
  webhookId: delivery.webhook.id,
  eventId: delivery.event.id,
  eventType: delivery.event.type as Delivery['eventType'],
  status: delivery.status,
  attemptCount: delivery.attemptCount,
  lastStatusCode: delivery.lastStatusCode ?? null,
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  createdAt: delivery.createdAt.toISOString(),
  completedAt: delivery.completedAt?.toISOString() ?? null,
  attempts: attempts.map(toDeliveryAttempt),
});
