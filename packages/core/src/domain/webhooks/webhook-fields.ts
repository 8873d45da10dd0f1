/** A webhook's fields as input (zod): the webhook procedures and the scenario document both take them. */
import { EVENT_TYPES, EventTypeSchema } from '@sandbank/schemas';
import { standardSecretProblem } from '@sandbank/webhooks';
import { z } from 'zod';

export const WebhookUrlSchema = z
  .url({ protocol: /^https?$/, error: 'Must be an http or https URL' })
  .max(2048)
  .meta({ example: 'https://budget.example.com/hooks/sandbank' });

/**
 * The shared HMAC key. Printable ASCII (no spaces) so every Standard Webhooks library reads it the
 * same way; in the Standard Webhooks form (`whsec_` + base64) the key is the decoded bytes, so that
 * base64 must be valid and long enough (signing.ts).
 */
export const WebhookSecretSchema = z
  .string()
  .min(16)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces')
  .superRefine((value, ctx) => {
    const problem = standardSecretProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description:
      '16–256 printable ASCII characters; never returned. `whsec_` + base64 (the Standard Webhooks form) is signed with the decoded key, which must be at least 16 bytes; any other secret with its UTF-8 bytes',
    example: 'whsec_MfKQ9r8GKYqrTFKsLLBAkyVE0tOAtMHs',
  });

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
