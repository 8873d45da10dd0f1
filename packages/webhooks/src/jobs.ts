/**
 * The delivery job, shared by whoever enqueues it (the worker's relay and retries, the API's
 * redelivery) and the task that runs it.
 *
 * One job is one HTTP attempt. An attempt that fails enqueues the next one itself (with `run_at`
 * from the retry schedule), so graphile-worker's own retries are only for crashes and unexpected
 * errors; `JOB_MAX_ATTEMPTS` bounds those. Every job of a delivery has the key
 * `delivery:<id>`, so a redelivery replaces a retry that is waiting rather than adding a second.
 *
 * Every job names the user who owns the delivery, in its payload and as the graphile-worker flag
 * `user:<id>`: a worker skips the jobs of a user who already has `WORKER_USER_CONCURRENCY` attempts
 * in flight there (`forbiddenFlags`), so one user's slow receivers cannot hold every slot.
 */
import { z } from 'zod';

export const DELIVER_WEBHOOK_TASK = 'deliver-webhook';

/** graphile-worker attempts of one job: crash or error recovery, not the HTTP retry schedule. */
export const JOB_MAX_ATTEMPTS = 10;

export const deliveryJobKey = (deliveryId: string) => `delivery:${deliveryId}`;

/** The graphile-worker flag of a user's delivery jobs; a worker forbids it while that user is at its cap. */
export const deliveryUserFlag = (userId: string) => `user:${userId}`;

/** Payloads are read as `unknown`: jobs inserted by SQL or by an older release must still parse. */
export const DeliveryJobPayloadSchema = z.object({
  deliveryId: z.uuid(),
  /** 1 for the first try of a delivery cycle (a relay or a redelivery), then 2, 3, … for retries. */
  attempt: z.int().min(1).default(1),
  /** The delivery's cycle this job belongs to: 1, then +1 per redelivery. A job of an older cycle sends nothing. */
  cycle: z.int().min(1).default(1),
  /** The delivery's owner: the unit of fairness. Jobs enqueued before it existed lack it and are not capped. */
  userId: z.uuid().optional(),
  /** Set on a first try the webhook lab's reorder fault held back this long: it is sent now, not held again. */
  heldMs: z.int().min(1).optional(),
});
export type DeliveryJobPayload = z.infer<typeof DeliveryJobPayloadSchema>;

/** A delivery job in the shape of graphile-worker's `job_spec`, built in one place for every enqueuer. */
interface DeliveryJobSpec {
  identifier: typeof DELIVER_WEBHOOK_TASK;
  payload: DeliveryJobPayload;
  run_at: string | null;
  max_attempts: number;
  job_key: string;
  flags: string[];
}

/** The job for one try of a delivery: validated by the payload schema, keyed by the delivery, flagged by its owner. */
export function deliveryJob(
  payload: z.input<typeof DeliveryJobPayloadSchema> & { userId: string },
  runAt?: Date,
): DeliveryJobSpec {
  const parsed = DeliveryJobPayloadSchema.parse(payload);
  return {
    identifier: DELIVER_WEBHOOK_TASK,
    payload: parsed,
    run_at: runAt ? runAt.toISOString() : null,
    max_attempts: JOB_MAX_ATTEMPTS,
    job_key: deliveryJobKey(parsed.deliveryId),
    flags: [deliveryUserFlag(payload.userId)],
  };
}

/**
 * The one statement that enqueues delivery jobs, inside the caller's transaction: its single
 * parameter (written `placeholder`: `$1` for pg, `?` for MikroORM) is the JSON array of
 * `deliveryJob(...)` specs. One `add_jobs` call, so one NOTIFY per batch.
 */
export const enqueueDeliveryJobsSql = (placeholder: string) =>
  `select count(*) from graphile_worker.add_jobs(array(
     select json_populate_record(null::graphile_worker.job_spec, spec) from json_array_elements(${placeholder}::json) as spec))`;

/**
 * The delay before the next try after attempt `attempt` (1-based) failed, or null when the
 * schedule is exhausted and the delivery fails.
 */
export function retryDelaySeconds(attempt: number, scheduleSeconds: readonly number[]): number | null {
  return scheduleSeconds[attempt - 1] ?? null;
}
