/**
 * The webhook lab's faults (docs/guides/webhooks.md): per webhook, what the sender does wrong on purpose so a
 * receiver can be tested against it. Every rate is the share of attempts hit (0–1), rolled from the
 * seed, the event id, the delivery cycle and the attempt, so the same events meet the same faults
 * on every run. Off by default (a webhook's `faults` is null).
 */
import { z } from 'zod';

/** Upper bounds of the fault fields (inputs above them are 400). */
export const FAULT_LIMITS = {
  latencyMs: 10_000,
  reorderWindowMs: 60_000,
  staleSeconds: 7 * 24 * 3600,
} as const;

const RateSchema = z.number().min(0).max(1).meta({ description: 'Share of attempts hit, 0–1' });

export const WebhookFaultsSchema = z
  .strictObject({
    seed: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces')
      .optional()
      .meta({ description: 'Makes the faults repeatable: the same seed hits the same events. One is chosen if omitted.' }),
    failure: z
      .strictObject({
        rate: RateSchema,
        status: z
          .union([
            z
              .int()
              .min(400)
              .max(599)
              .refine((status) => status !== 410, '410 would disable the webhook'),
            z.literal('timeout'),
          ])
          .default(503)
          .meta({ description: 'The answer the attempt is counted as (the request is still sent): a status, or `timeout`' }),
      })
      .optional()
      .meta({ description: 'Attempts counted as failed whatever the receiver answers, so the event is retried' }),
    latency: z
      .strictObject({ rate: RateSchema.default(1), ms: z.int().min(1).max(FAULT_LIMITS.latencyMs) })
      .optional()
      .meta({ description: 'A pause before the request' }),
    duplicate: z
      .strictObject({ rate: RateSchema })
      .optional()
      .meta({ description: 'The request is sent twice: same body, same `webhook-id`' }),
    reorder: z
      .strictObject({ rate: RateSchema.default(1), windowMs: z.int().min(1).max(FAULT_LIMITS.reorderWindowMs) })
      .optional()
      .meta({ description: 'A first attempt held back by up to `windowMs`, so events arrive out of order' }),
    staleTimestamp: z
      .strictObject({ rate: RateSchema, ageSeconds: z.int().min(301).max(FAULT_LIMITS.staleSeconds).default(3600) })
      .optional()
      .meta({ description: 'Signed with a `webhook-timestamp` this old: Standard Webhooks receivers must refuse it' }),
  })
  .meta({ id: 'WebhookFaults' });
export type WebhookFaults = z.infer<typeof WebhookFaultsSchema>;

export const FAULT_KINDS = ['failure', 'latency', 'duplicate', 'reorder', 'staleTimestamp'] as const;

/** One fault as an attempt carried it: its kind and what it did. */
export const AttemptFaultSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    status: z
      .union([z.int(), z.literal('timeout')])
      .optional()
      .meta({ description: 'failure: the answer counted' }),
    ms: z.int().optional().meta({ description: 'latency: the pause; reorder: how long the attempt was held' }),
    ageSeconds: z.int().optional().meta({ description: 'staleTimestamp: how old the signed timestamp was' }),
  })
  .meta({ id: 'AttemptFault' });
export type AttemptFault = z.infer<typeof AttemptFaultSchema>;
