/**
 * The one builder of an event's JSON. The worker's webhook delivery and the event log
 * (`GET /v1/events`, `/v1/events/:id`) both turn a stored `events` row into the body here, so a
 * receiver that polls and one that is pushed to see the same bytes and deduplicate by `id`.
 */
import type { z } from 'zod';
import { type WebhookEvent, WebhookEventSchema } from './resources.ts';

/** An `events` row as SQL returns it (timestamps as Date or string, payload as parsed jsonb). */
export interface EventRow {
  id: string;
  type: string;
  created_at: Date | string;
  payload: unknown;
}

/** The event body, or why the stored row does not match the contract (never expected; the worker closes such deliveries). */
export function buildEventBody(row: EventRow): z.ZodSafeParseResult<WebhookEvent> {
  return WebhookEventSchema.safeParse({
    id: row.id,
    type: row.type,
    createdAt: new Date(row.created_at).toISOString(),
    data: row.payload,
  });
}
