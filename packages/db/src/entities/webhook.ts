import { defineEntity, p } from '@mikro-orm/core';
import { EventEntity } from './ledger.ts';
import { UserEntity } from './user.ts';

const WebhookDefinition = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(UserEntity),
    clientId: p.text(),
    url: p.text(),
    events: p.array(),
    /** AES-256-GCM: base64(iv ‖ tag ‖ ciphertext), with the id of the key that sealed it. */
    secretCiphertext: p.text().hidden(),
    secretKeyId: p.text().hidden(),
    /** The secret before the last rotation; deliveries carry its signature too until the overlap ends. */
    previousSecretCiphertext: p.text().nullable().hidden(),
    previousSecretKeyId: p.text().nullable().hidden(),
    secretRotatedAt: p.datetime(3).nullable(),
    status: p.enum(['active', 'disabled'] as const).default('active'),
    disabledReason: p.text().nullable(),
    /** The webhook lab's faults (docs/guides/webhooks.md, `WebhookFaults`); null: none. */
    faults: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    updatedAt: p
      .datetime(3)
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    deletedAt: p.datetime(3).nullable(),
  },
});
export class WebhookEntity extends WebhookDefinition.class {}
WebhookDefinition.setClass(WebhookEntity);

/** One event sent to one webhook (unique per pair, so relaying twice cannot send twice). */
const DeliveryDefinition = defineEntity({
  name: 'Delivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.uuid().primary(),
    webhook: () => p.manyToOne(WebhookEntity),
    event: () => p.manyToOne(EventEntity),
    status: p.enum(['pending', 'succeeded', 'failed'] as const).default('pending'),
    attemptCount: p.integer().default(0),
    /** 1, then +1 for every redelivery; jobs carry it, so an older cycle's attempt cannot move the delivery. */
    cycle: p.integer().default(1),
    nextAttemptAt: p.datetime(3).nullable(),
    lastStatusCode: p.integer().nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    updatedAt: p
      .datetime(3)
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    completedAt: p.datetime(3).nullable(),
  },
});
export class DeliveryEntity extends DeliveryDefinition.class {}
DeliveryDefinition.setClass(DeliveryEntity);

const DeliveryAttemptDefinition = defineEntity({
  name: 'DeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  properties: {
    id: p.uuid().primary(),
    delivery: () => p.manyToOne(DeliveryEntity),
    attempt: p.integer(),
    startedAt: p.datetime(3),
    durationMs: p.integer(),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    nextAttemptAt: p.datetime(3).nullable(),
    /** The faults this attempt carried (`AttemptFault[]`), empty for none. */
    faults: p.json<Record<string, unknown>[]>().default([]),
    /** The request as sent: URL, headers (signatures included; never the secret) and body. Null before they were recorded. */
    requestUrl: p.text().nullable(),
    requestHeaders: p.json<Record<string, string>>().nullable(),
    requestBody: p.text().nullable(),
    /** The receiver's own answer (`statusCode` is what the attempt counted as); null when none came. */
    responseStatus: p.integer().nullable(),
    /** content-type and content-length only. */
    responseHeaders: p.json<Record<string, string>>().nullable(),
    /** The first 2 KB of the answer's body, decoded as UTF-8 (invalid bytes replaced). */
    responseBody: p.text().nullable(),
    responseBodyTruncated: p.boolean().default(false),
    /** When the worker's retention cleared the request and response columns above (WEBHOOK_ATTEMPT_RETENTION_HOURS). */
    exchangeRemovedAt: p.datetime(3).nullable(),
  },
});
export class DeliveryAttemptEntity extends DeliveryAttemptDefinition.class {}
DeliveryAttemptDefinition.setClass(DeliveryAttemptEntity);
