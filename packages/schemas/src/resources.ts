/** The resource shapes of SPEC §3, as returned by the API (never raw entities). */
import { z } from 'zod';
import { CurrencySchema, IdSchema, MinorUnitsSchema, TimestampSchema } from './format.ts';

export const SIMULATOR_SOURCE = 'sandbank-simulator';

export const UserSchema = z.object({ id: IdSchema, email: z.email(), createdAt: TimestampSchema }).meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

export const AccountStatusSchema = z.enum(['open', 'closed']);
export const AccountSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    balance: MinorUnitsSchema,
    currency: CurrencySchema,
    status: AccountStatusSchema,
    createdAt: TimestampSchema,
    closedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof AccountSchema>;

export const TransactionRawSchema = z.looseObject({ source: z.string() });
export const TransactionSchema = z
  .object({
    id: IdSchema,
    externalTxnId: z.string(),
    accountId: IdSchema,
    amount: MinorUnitsSchema.meta({ description: 'Minor units; negative for outgoing' }),
    currency: CurrencySchema,
    date: TimestampSchema,
    description: z.string(),
    raw: TransactionRawSchema,
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof TransactionSchema>;

/** A user's API key as listed: never the key itself nor its hash, only a short visible prefix. */
export const ApiKeySchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the key, to tell keys apart', example: 'sbk_Q2hhcmxp' }),
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable().meta({ description: 'Updated at most once a minute' }),
    expiresAt: TimestampSchema.nullable(),
    revokedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const EVENT_TYPES = ['transaction.created'] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

/** The body the worker POSTs to a webhook. */
export const WebhookEventSchema = z.object({
  id: IdSchema,
  type: EventTypeSchema,
  createdAt: TimestampSchema,
  data: z.object({ transaction: TransactionSchema }),
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export const WebhookStatusSchema = z.enum(['active', 'disabled']);
export const WebhookSchema = z
  .object({
    id: IdSchema,
    url: z.url(),
    events: z.array(EventTypeSchema),
    clientId: z.string(),
    status: WebhookStatusSchema,
    disabledReason: z.string().nullable().meta({ description: 'Why the webhook was disabled (e.g. the receiver answered 410)' }),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Webhook', description: 'A subscription of a URL to event kinds. The secret is never returned.' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const DeliveryAttemptSchema = z
  .object({
    attempt: z
      .int()
      .meta({ description: '1 for the first request of the delivery, counting on across retries and redeliveries' }),
    at: TimestampSchema.meta({ description: 'When the request started' }),
    statusCode: z.int().nullable().meta({ description: 'The HTTP status of the answer; null when none came' }),
    durationMs: z.int(),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (timeout, network error, status), or null' }),
    nextAttemptAt: TimestampSchema.nullable().meta({ description: 'When the next try was scheduled after this one, if any' }),
  })
  .meta({ id: 'DeliveryAttempt' });
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

export const DeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);
export const DeliverySchema = z
  .object({
    id: IdSchema,
    webhookId: IdSchema,
    eventId: IdSchema.meta({ description: 'Also the X-Sandbank-Idempotency-Key of every request of this delivery' }),
    eventType: EventTypeSchema,
    status: DeliveryStatusSchema,
    attemptCount: z.int(),
    lastStatusCode: z.int().nullable(),
    nextAttemptAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    completedAt: TimestampSchema.nullable(),
    attempts: z.array(DeliveryAttemptSchema).meta({ description: 'Every request made, oldest first' }),
  })
  .meta({ id: 'Delivery', description: 'One event sent to one webhook, with every attempt.' });
export type Delivery = z.infer<typeof DeliverySchema>;
