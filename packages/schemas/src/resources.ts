/** The resource shapes the API returns (never raw entities); docs/reference/endpoints.md lists the routes. */
import { z } from 'zod';
import { CurrencySchema, IdSchema, MinorUnitsSchema, TimestampSchema } from './format.ts';
import { PaymentSchema } from './payments.ts';
import { AttemptFaultSchema, WebhookFaultsSchema } from './webhook-faults.ts';

export const SIMULATOR_SOURCE = 'sandbank-simulator';

export const UserSchema = z.object({ id: IdSchema, email: z.email(), createdAt: TimestampSchema }).meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

/** A currency an account may hold (`GET /v1/currencies`): ISO 4217 code, name and minor-unit exponent. */
export const CurrencyInfoSchema = z
  .object({
    code: CurrencySchema,
    name: z.string().meta({ description: 'The ISO 4217 name', example: 'Zloty' }),
    exponent: z.number().int().min(0).meta({
      description: 'Decimal places of the minor unit: amounts are integers of 10^-exponent units (JPY 0, PLN 2, KWD 3)',
      example: 2,
    }),
  })
  .meta({ id: 'Currency' });
export type CurrencyInfo = z.infer<typeof CurrencyInfoSchema>;

/** A world's exchange rate for one day (`GET`/`PUT /v1/fx/rates`, docs/concepts/currencies.md "Rates"). */
export const FxRateSchema = z
  .object({
    date: z.string().meta({ description: 'The day asked (YYYY-MM-DD, Europe/Warsaw)', example: '2026-11-28' }),
    rateDate: z.string().meta({
      description:
        'The TARGET business day whose rate the date shows: the date itself, or the last business day before a weekend or closing day',
      example: '2026-11-27',
    }),
    base: CurrencySchema,
    quote: CurrencySchema,
    rate: z.string().meta({ description: 'Quote currency per 1 unit of the base, a plain decimal', example: '4.2965' }),
    pinned: z
      .boolean()
      .meta({ description: 'Whether a rate pinned in this world decided it (the pair, its inverse or a PLN leg)' }),
  })
  .meta({ id: 'FxRate' });
export type FxRate = z.infer<typeof FxRateSchema>;

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
    heldAmount: MinorUnitsSchema.meta({ description: 'Σ |amount| of the pending debits (held, not yet posted)' }),
    availableBalance: MinorUnitsSchema.meta({ description: 'balance − heldAmount: what a new debit may spend' }),
    iban: z
      .string()
      .regex(/^PL\d{26}$/)
      .meta({
        description:
          'The account’s Polish IBAN (electronic form, no spaces), derived from its id on Sandbank’s sort code 99900012 (bank 999, assigned to no real bank); valid check digits',
        example: 'PL59999000122246899461306395',
      }),
    bic: z
      .string()
      .meta({ description: 'Sandbank’s BIC: `SNDBPLP0` (a test BIC: location code ending in 0)', example: 'SNDBPLP0' }),
    cardFxMargin: z.string().meta({
      description:
        'What a card payment in another currency costs on top of the reference rate, as a fraction (0.02: 2 %, the default; 0 to 0.1)',
      example: '0.02',
    }),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof AccountSchema>;

export const TRANSACTION_STATUSES = ['pending', 'posted', 'voided'] as const;
export const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>;

/** The categories a transaction may carry (a bank's or a budgeting app's coarse buckets). */
export const CATEGORIES = [
  'groceries',
  'transport',
  'fuel',
  'utilities',
  'telecom',
  'subscriptions',
  'restaurants',
  'health',
  'shopping',
  'housing',
  'salary',
  'transfer',
  'cash',
  'entertainment',
  'education',
  'other',
] as const;
export const CategorySchema = z.enum(CATEGORIES);
export type Category = z.infer<typeof CategorySchema>;

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
    status: TransactionStatusSchema.meta({ description: 'pending → posted | voided; the id never changes' }),
    postedAt: TimestampSchema.nullable().meta({ description: 'When it posted; null while pending or voided' }),
    version: z.int().meta({ description: '1, then +1 on every change: keep the highest you have seen' }),
    merchant: z.string().nullable(),
    category: CategorySchema.nullable(),
    reversalOf: IdSchema.nullable().meta({ description: 'The transaction this one reverses (a refund), or null' }),
    paymentId: IdSchema.optional().meta({
      description: 'Present on a payment’s transactions only: the payment this is a leg (or a return) of',
    }),
    counterpartTransactionId: IdSchema.optional().meta({
      description: 'Present on an own-account transfer’s legs only: the other leg',
    }),
    originalAmount: MinorUnitsSchema.optional().meta({
      description:
        'A card payment in another currency only: what the merchant charged, in minor units of originalCurrency, signed like amount',
    }),
    originalCurrency: CurrencySchema.optional().meta({
      description: 'A card payment in another currency only: the merchant’s currency',
    }),
    exchangeRate: z.string().optional().meta({
      description:
        'A card payment in another currency only: the account currency per 1 unit of originalCurrency it was converted at (the card FX margin included), at least 10 significant digits',
      example: '4.386000000',
    }),
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

export const EVENT_TYPES = [
  'transaction.created',
  'transaction.updated',
  'transaction.removed',
  'scenario.applied',
  /** A payment was made (any status, a rejection at validation too): `data.payment`. */
  'payment.created',
  /** A payment's status changed (or it came back): `data.payment`, `data.previous`, `data.changes`. */
  'payment.updated',
  /** `POST /v1/webhooks/:id/test` only: sent to that webhook, not part of the event log (`data` is `{}`). */
  'webhook.test',
] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

/** The account's balances right after a change, carried by every transaction event. */
export const BalancesSchema = z
  .object({ balance: MinorUnitsSchema, availableBalance: MinorUnitsSchema })
  .meta({ id: 'Balances', description: 'The account after the change' });
export type Balances = z.infer<typeof BalancesSchema>;

export const RemovalReasonSchema = z.enum(['voided', 'expired']);

/**
 * The body the worker POSTs to a webhook (and the event log serves). `data.transaction` is the
 * transaction after the change; `transaction.updated` adds `previous` (the changed fields' old
 * values) and `changes` (their names); `transaction.removed` adds `reason`.
 */
export const WebhookEventSchema = z
  .object({
    id: IdSchema,
    type: EventTypeSchema,
    createdAt: TimestampSchema,
    data: z.object({
      transaction: TransactionSchema.optional().meta({
        description: 'Every transaction.* event: the transaction after the change',
      }),
      previous: z.record(z.string(), z.unknown()).optional(),
      changes: z.array(z.string()).optional(),
      reason: RemovalReasonSchema.optional(),
      payment: PaymentSchema.optional().meta({ description: 'Every payment.* event: the payment after the change' }),
      balances: BalancesSchema.optional(),
      scenario: z
        .object({
          seed: z.union([z.int(), z.string()]),
          accounts: z.array(z.object({ key: z.string(), id: IdSchema })),
          transactions: z.int(),
          schedules: z.int(),
          webhooks: z.int(),
        })
        .optional()
        .meta({ description: 'scenario.applied only: what the scenario built (one event, not one per transaction)' }),
    }),
  })
  .meta({ id: 'Event', description: 'One event: the body its webhooks receive, byte for byte' });
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
    secretRotatedAt: TimestampSchema.nullable().meta({
      description: 'When the secret last changed; deliveries carry the old signature too until the overlap ends',
    }),
    secretOverlapEndsAt: TimestampSchema.nullable().meta({
      description:
        'Until when the secret before the last rotation signs too (secretRotatedAt + WEBHOOK_SECRET_OVERLAP_HOURS); null if never rotated',
    }),
    faults: WebhookFaultsSchema.nullable().meta({
      description: 'Faults injected into deliveries for testing the receiver (null: none, the default)',
    }),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Webhook', description: 'A subscription of a URL to event kinds. The secret is never returned.' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const DeliveryAttemptRequestSchema = z
  .object({
    method: z.literal('POST'),
    url: z.string().meta({ description: 'The URL the request went to (the webhook’s URL at the time)' }),
    // Not `headers`: OWASP's CORS rule reads any property of that name as a response's headers.
    httpHeaders: z.record(z.string(), z.string()).meta({
      description:
        'The headers Sandbank set, signatures included (the signing secret never); the HTTP client adds host and content-length',
    }),
    body: z.string().meta({ description: 'The body, exactly as sent (the bytes the signature covers)' }),
  })
  .meta({ id: 'DeliveryAttemptRequest', description: 'The request of one attempt, as sent.' });

export const DeliveryAttemptResponseSchema = z
  .object({
    statusCode: z.int().meta({
      description: 'The status the receiver answered (the attempt’s `statusCode` differs when a failure fault counted another)',
    }),
    httpHeaders: z
      .record(z.string(), z.string())
      .meta({ description: 'The answer’s content-type and content-length, when present' }),
    body: z.string().meta({
      description: 'The first 2 KB of the answer’s body, decoded as UTF-8 (invalid bytes replaced by U+FFFD)',
    }),
    bodyTruncated: z.boolean().meta({ description: 'True when the body was longer than the excerpt' }),
  })
  .meta({ id: 'DeliveryAttemptResponse', description: 'What the receiver answered to one attempt.' });

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
    faults: z.array(AttemptFaultSchema).meta({ description: "The webhook's faults this attempt carried (empty: none)" }),
    request: DeliveryAttemptRequestSchema.nullable().meta({
      description:
        'The request as sent; null once retention removed it (exchangeRemovedAt) or for attempts recorded before requests were kept',
    }),
    response: DeliveryAttemptResponseSchema.nullable().meta({
      description:
        'What the receiver answered; null when no answer came (timeout, network error), once retention removed it (exchangeRemovedAt), or for older attempts',
    }),
    exchangeRemovedAt: TimestampSchema.nullable().meta({
      description:
        'When the recorded request and response were removed, WEBHOOK_ATTEMPT_RETENTION_HOURS (7 days by default) of real time after the attempt; null while they are kept. The attempt itself stays.',
    }),
  })
  .meta({ id: 'DeliveryAttempt' });
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

export const DeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);
/**
 * What a delivery sends: an event of the log, or (to a Plaid Item's webhook only) `plaid.webhook`, one of
 * the Item's own Plaid notifications (docs/faces/plaid.md), which the event log does not list.
 */
export const DeliveryEventTypeSchema = z.enum([...EVENT_TYPES, 'plaid.webhook']);

export const DeliverySchema = z
  .object({
    id: IdSchema,
    webhookId: IdSchema,
    eventId: IdSchema.meta({ description: 'Also the X-Sandbank-Idempotency-Key of every request of this delivery' }),
    eventType: DeliveryEventTypeSchema.meta({
      description: 'The event delivered; `plaid.webhook` for a Plaid Item’s ITEM notification (its webhook only)',
    }),
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

/** A world's clock (docs/concepts/clock-and-schedules.md): now = wall time + offsetMs; the offset only grows. */
export const ClockSchema = z
  .object({
    now: TimestampSchema.meta({ description: "The world's now" }),
    offsetMs: z.int().min(0).meta({ description: 'How far ahead of wall time this world runs, in milliseconds' }),
  })
  .meta({ id: 'Clock' });
export type Clock = z.infer<typeof ClockSchema>;

export const ScheduleStateSchema = z.enum(['active', 'paused', 'ended']);
export const ScheduleSchema = z
  .object({
    id: IdSchema,
    accountId: IdSchema,
    amount: MinorUnitsSchema,
    description: z.string(),
    merchant: z.string().nullable(),
    category: CategorySchema.nullable(),
    rrule: z.string().meta({ description: 'RFC 5545 recurrence rule', example: 'FREQ=MONTHLY;BYMONTHDAY=10' }),
    timezone: z.string().meta({ description: 'IANA time zone of the occurrences', example: 'Europe/Warsaw' }),
    startAt: TimestampSchema,
    status: z.enum(['posted', 'pending']).meta({ description: 'How each run books' }),
    settleAfter: z.string().nullable(),
    nextRunAt: TimestampSchema.nullable().meta({ description: 'The next occurrence; null once ended' }),
    state: ScheduleStateSchema,
    runs: z.int().meta({ description: 'How many occurrences have fired (booked or failed)' }),
    createdAt: TimestampSchema,
    payment: z
      .object({
        to: z.union([
          z.object({ iban: z.string(), name: z.string() }),
          z.object({ accountId: IdSchema.meta({ description: 'Another account of the world: an own-account transfer' }) }),
        ]),
        scheme: z
          .string()
          .nullable()
          .meta({ description: "null: the account currency's default (to an IBAN), or none (to an own account)" }),
      })
      .nullable()
      .meta({ description: 'A standing order: what each run pays (a payment of -amount); null: each run books a transaction' }),
  })
  .meta({ id: 'Schedule', description: 'A recurring transaction, fired by the clock' });
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleRunSchema = z
  .object({
    n: z.int().min(1).meta({ description: 'The occurrence number; the run books with externalTxnId sch_<scheduleId>_<n>' }),
    dueAt: TimestampSchema,
    transactionId: IdSchema.nullable(),
    failure: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why the run booked nothing (e.g. INSUFFICIENT_FUNDS); null when it booked' }),
  })
  .meta({ id: 'ScheduleRun' });
export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;

/** What a snapshot keeps beyond the world's money and clock, when asked (`include`). */
export const SnapshotIncludeSchema = z.enum(['webhooks', 'apiKeys']).meta({ id: 'SnapshotInclude' });

/** A kept copy of a world: what it holds, and the world's now when it was taken. */
export const SnapshotSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    takenAt: TimestampSchema.meta({ description: "The world's clock when the snapshot was taken" }),
    clockOffsetMs: z.int().meta({ description: "The world's clock offset then; a fork or a restore starts with it" }),
    accounts: z.int(),
    transactions: z.int(),
    schedules: z.int(),
    webhooks: z.int().meta({
      description:
        'Webhook subscriptions kept (`include: ["webhooks"]`; 0 otherwise): a fork registers each anew with a fresh secret',
    }),
    apiKeys: z.int().meta({
      description: 'API keys kept (`include: ["apiKeys"]`; 0 otherwise): a fork makes a fresh key of each (same name and expiry)',
    }),
    include: z.array(SnapshotIncludeSchema).meta({
      description:
        'What it was asked to keep besides money and clock, in this order: `webhooks`, then `apiKeys` ([] for neither); a kind asked for is here even when the world had none of it',
      example: ['webhooks'],
    }),
  })
  .meta({ id: 'Snapshot' });
export type Snapshot = z.infer<typeof SnapshotSchema>;

export const WorldSourceSchema = z.enum(['snapshot', 'scenario']);

/** A child world: a user without a password, owned by its parent, removed when its TTL runs out. */
export const WorldSchema = z
  .object({
    id: IdSchema.meta({ description: "The child world's user id (also its `owner` on the pull endpoint)" }),
    email: z.email().meta({
      description: 'The generated address of the world (it has no password: it signs in only with its tokens and API keys)',
    }),
    parentId: IdSchema,
    source: WorldSourceSchema,
    snapshotId: IdSchema.nullable().meta({
      description: 'The snapshot it was forked from (null for a scenario, or once that snapshot is deleted)',
    }),
    createdAt: TimestampSchema.meta({ description: 'Wall time (a TTL runs on real time, not on a world clock)' }),
    expiresAt: TimestampSchema.meta({ description: 'Wall time at which the worker removes the world and all its data' }),
  })
  .meta({ id: 'World' });
export type World = z.infer<typeof WorldSchema>;

export const PLAID_ITEM_STATUSES = ['awaiting_exchange', 'good', 'login_required', 'removed'] as const;

/** A Plaid Item of the world as the console lists it (docs/faces/plaid.md): what an app linked through the Plaid face. */
export const PlaidItemSummarySchema = z
  .object({
    id: IdSchema.meta({ description: 'The Item’s `item_id` on the Plaid face' }),
    institutionId: z.string().meta({ example: 'ins_sandbank' }),
    status: z.enum(PLAID_ITEM_STATUSES).meta({
      description:
        '`awaiting_exchange`: its public token was not exchanged yet; `good`; `login_required`: the Item’s error is ITEM_LOGIN_REQUIRED (after /sandbox/item/reset_login, until /sandbox/item/repair); `removed` by /item/remove or here',
    }),
    error: z.enum(['ITEM_LOGIN_REQUIRED']).nullable().meta({
      description:
        'The `error_code` of the Item’s `error` on the Plaid face (`/item/get`), null while it has none or once removed',
    }),
    accounts: z
      .array(
        z.object({
          id: IdSchema.meta({ description: 'The account id, also its `account_id` on the Plaid face' }),
          name: z.string(),
        }),
      )
      .meta({ description: 'The accounts linked, in the Item’s order (those open when it was created)' }),
    webhookUrl: z.string().nullable().meta({ description: 'Where the Item’s Plaid webhooks go (null: none)' }),
    webhookId: IdSchema.nullable().meta({
      description: 'The webhook (client id `plaid`) that delivers them: its deliveries are at GET /v1/webhooks/{id}/deliveries',
    }),
    consentedProducts: z.array(z.string()).meta({ example: ['transactions'] }),
    createdAt: TimestampSchema.meta({ description: "The world's clock when the Item was created" }),
    removedAt: TimestampSchema.nullable().meta({ description: "The world's clock when it was removed" }),
  })
  .meta({ id: 'PlaidItemSummary' });
export type PlaidItemSummary = z.infer<typeof PlaidItemSummarySchema>;
