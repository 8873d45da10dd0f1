/**
 * The Event mapper of the event log. The body comes from `buildEventBody` (packages/schemas),
 * the same function the worker's webhook delivery uses, so both are equal byte for byte.
 */
import { buildEventBody, type EventRow, type WebhookEvent } from '@sandbank/schemas';

export function toEvent(row: EventRow): WebhookEvent {
  const built = buildEventBody(row);
  // Stored events are written by our own statements; a mismatch is a bug, not a client error.
  if (!built.success) throw new Error(`event ${row.id} does not match the event schema: ${built.error.message}`);
  return built.data;
}
