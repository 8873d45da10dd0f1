/**
 * The delivery task's transactions on the worker's pool, after the request: the attempt, the
 * delivery's new state, a 410's disabling of the webhook and the next try's job commit together;
 * and a job put back or held, only while its delivery is still pending in the job's cycle. The
 * statements are in queries.ts.
 */
import { type DeliveryJobPayload, deliveryJob } from '@sandbank/webhooks';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { inTransaction } from '../transaction.ts';
import { enqueueDeliveryJobs, insertAttemptAndAdvanceDelivery, lockPendingDelivery, type NewAttempt } from './queries.ts';

export interface AttemptRecord extends Omit<NewAttempt, 'id'> {
  userId: string;
  /** When `outcome` is `pending`: the next try's attempt number, in its job's payload. */
  nextJobAttempt: number | null;
}

export async function recordAttempt(pool: pg.Pool, record: AttemptRecord): Promise<void> {
  await inTransaction(pool, async (client) => {
    const current = await insertAttemptAndAdvanceDelivery(client, { id: uuidv7(), ...record });
    // A redelivery started a new cycle while this attempt was in flight: its job decides what follows.
    if (!current) return;
    if (record.outcome === 'pending' && record.nextAttemptAt && record.nextJobAttempt) {
      const job = deliveryJob(
        { deliveryId: record.deliveryId, attempt: record.nextJobAttempt, cycle: record.cycle, userId: record.userId },
        record.nextAttemptAt,
      );
      await enqueueDeliveryJobs(client, [job]);
    }
  });
}

/**
 * Puts a job that found its user's slots taken back in the queue, as it was (a new job under the
 * same key: graphile-worker keeps the running one's key off it). Only while the delivery is still
 * pending in the job's cycle, checked under the delivery's row lock: a redelivery that started a
 * newer cycle meanwhile has its own job, which this one must not replace.
 */
export async function putBackDeliveryJob(pool: pg.Pool, payload: DeliveryJobPayload & { userId: string }): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    if (!(await lockPendingDelivery(client, payload))) return false;
    await enqueueDeliveryJobs(client, [deliveryJob(payload)]);
    return true;
  });
}

/**
 * The reorder fault: the job comes back later (`heldMs` in its payload, so it is not held twice),
 * while the delivery is still pending in the job's cycle (checked under its row lock, as above).
 */
export async function holdDeliveryJob(
  pool: pg.Pool,
  payload: DeliveryJobPayload & { userId: string; heldMs: number },
): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    if (!(await lockPendingDelivery(client, payload))) return false;
    const job = deliveryJob(payload, new Date(Date.now() + payload.heldMs));
    await enqueueDeliveryJobs(client, [job]);
    return true;
  });
}
