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
