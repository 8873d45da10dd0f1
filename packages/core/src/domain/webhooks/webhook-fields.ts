/** A webhook's fields as input (zod): the webhook procedures and the scenario document both take them. */
import { EVENT_TYPES, EventTypeSchema } from '@sandbank/schemas';
import { z } from 'zod';

export const WebhookUrlSchema = z
  .url({ protocol: /^https?$/, error: 'Must be an http or https URL' })
  .max(2048)
  .meta({ example: 'https://budget.example.com/hooks/sandbank' });

/** The shared HMAC key. Printable ASCII (no spaces) so every Standard Webhooks library reads it the same way. */
export const WebhookSecretSchema = z
  .string()
  .min(16)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces')
  .meta({ description: '16–256 printable ASCII characters; never returned', example: 'whsec-0b5d8f1e2a7c4e9b' });

export const WebhookEventsSchema = z
  .array(EventTypeSchema)
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'Event kinds must be unique')
  .meta({ description: 'Event kinds to receive', example: ['transaction.created'] });

export const ClientIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .meta({ description: 'Your identifier of the client app that owns this webhook', example: 'budget-app' });
