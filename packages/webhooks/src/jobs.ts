/**
 * The delivery job, shared by whoever enqueues it (the worker's relay and retries, the API's
 * redelivery) and the task that runs it.
 *
 * One job is one HTTP attempt. An attempt that fails enqueues the next one itself (with `run_at`
 * from the retry schedule), so graphile-worker's own retries are only for crashes and unexpected
 * errors; `JOB_MAX_ATTEMPTS` bounds those. Every job of a delivery has the key
 * `delivery:<id>`, so a redelivery replaces a retry that is waiting rather than adding a second.
 */
import { z } from 'zod';

export const DELIVER_WEBHOOK_TASK = 'deliver-webhook';

/** graphile-worker attempts of one job: crash or error recovery, not the HTTP retry schedule. */
export const JOB_MAX_ATTEMPTS = 10;

export const deliveryJobKey = (deliveryId: string) => `delivery:${deliveryId}`;

/** Payloads are read as `unknown`: jobs inserted by SQL or by an older release must still parse. */
export const DeliveryJobPayloadSchema = z.object({
  deliveryId: z.uuid(),
  /** 1 for the first try of a delivery cycle (a relay or a redelivery), then 2, 3, … for retries. */
  attempt: z.int().min(1).default(1),
});
export type DeliveryJobPayload = z.infer<typeof DeliveryJobPayloadSchema>;

/**
 * The delay before the next try after attempt `attempt` (1-based) failed, or null when the
 * schedule is exhausted and the delivery fails.
 */
export function retryDelaySeconds(attempt: number, scheduleSeconds: readonly number[]): number | null {
  return scheduleSeconds[attempt - 1] ?? null;
}
