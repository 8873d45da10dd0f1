/**
 * The delivery task's reads and writes, as hand-written statements on the worker's pool: one
 * read before the request, one transaction after it (the attempt, the delivery's new state, a
 * 410's disabling of the webhook and the next try's job commit together).
 */
import type { AttemptFault, WebhookFaults } from '@sandbank/schemas';
import { type DeliveryJobPayload, deliveryJob, enqueueDeliveryJobsSql } from '@sandbank/webhooks';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { inTransaction } from '../transaction.ts';
import type { ReceivedAnswer } from './http-client.ts';

export interface DeliveryTarget {
  deliveryId: string;
  webhookId: string;
  /** The webhook's owner: the unit of fairness between users. */
  userId: string;
  url: string;
  /** False when the webhook was disabled or deleted since the delivery was created. */
  active: boolean;
  secretCiphertext: string;
  secretKeyId: string;
  /** The secret before a rotation, while the overlap lasts (null otherwise). */
  previousSecretCiphertext: string | null;
  previousSecretKeyId: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  cycle: number;
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  eventPayload: unknown;
  /** Set when the webhook is a Plaid Item's: the body and signature are Plaid's (delivery/plaid.ts). */
  plaidItemId: string | null;
  /** The webhook lab's faults (null: none). */
  faults: WebhookFaults | null;
}

export async function loadDeliveryTarget(
  pool: pg.Pool,
  deliveryId: string,
  overlapSeconds: number,
): Promise<DeliveryTarget | null> {
  const { rows } = await pool.query<DeliveryTarget>(
    `select d.id as "deliveryId", w.id as "webhookId", w.user_id as "userId", w.url,
            (w.status = 'active' and w.deleted_at is null) as active,
            w.secret_ciphertext as "secretCiphertext", w.secret_key_id as "secretKeyId",
            case when w.secret_rotated_at > now() - make_interval(secs => $2) then w.previous_secret_ciphertext end
              as "previousSecretCiphertext",
            case when w.secret_rotated_at > now() - make_interval(secs => $2) then w.previous_secret_key_id end
              as "previousSecretKeyId",
            d.status, d.cycle,
            e.id as "eventId", e.type as "eventType", e.created_at as "eventCreatedAt", e.payload as "eventPayload",
            w.plaid_item_id as "plaidItemId", w.faults
       from webhook_deliveries d
       join webhooks w on w.id = d.webhook_id
       join events e on e.id = d.event_id
      where d.id = $1`,
    [deliveryId, overlapSeconds],
  );
  return rows[0] ?? null;
}

export interface AttemptRecord {
  deliveryId: string;
  /** The cycle of the job that made the attempt; an older cycle's attempt is recorded but moves nothing. */
  cycle: number;
  webhookId: string;
  userId: string;
  startedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** `pending` when another try follows (at `nextAttemptAt`, with `nextJobAttempt` in its payload). */
  outcome: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  nextJobAttempt: number | null;
  /** Set when the receiver asked to stop (410 Gone). */
  disableReason: string | null;
  /** The webhook lab's faults this attempt carried. */
  faults: AttemptFault[];
  /** The request as sent: the headers Sandbank set (signatures, never the secret) and the body, byte for byte. */
  request: { url: string; headers: Record<string, string>; body: string };
  /** The receiver's answer (its status even when a failure fault counted another); null when none came. */
  response: ReceivedAnswer | null;
}

export async function recordAttempt(pool: pg.Pool, record: AttemptRecord): Promise<void> {
  await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ current: boolean }>(
      `with attempt as (
         insert into webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, next_attempt_at, faults,
                                                request_url, request_headers, request_body,
                                                response_status, response_headers, response_body, response_body_truncated)
         select $1, d.id, d.attempt_count + 1, $3, $4, $5, $6, $7, $12::jsonb,
                $13, $14::jsonb, $15, $16, $17::jsonb, $18, $19
           from webhook_deliveries d where d.id = $2
       ), webhook as (
         update webhooks set status = 'disabled', disabled_reason = $10, updated_at = now()
          where id = $9 and $10::text is not null and status = 'active'
       )
       update webhook_deliveries
          set attempt_count = attempt_count + 1,
              status = case when cycle = $11 then $8 else status end,
              last_status_code = $5,
              next_attempt_at = case when cycle = $11 then $7 else next_attempt_at end,
              completed_at = case when cycle <> $11 then completed_at when $8 = 'pending' then null else now() end,
              updated_at = now()
        where id = $2
        returning cycle = $11 as current`,
      [
        uuidv7(),
        record.deliveryId,
        record.startedAt,
        record.durationMs,
        record.statusCode,
        record.error,
        record.nextAttemptAt,
        record.outcome,
        record.webhookId,
        record.disableReason,
        record.cycle,
        JSON.stringify(record.faults),
        record.request.url,
        JSON.stringify(record.request.headers),
        record.request.body,
        record.response?.status ?? null,
        record.response ? JSON.stringify(record.response.headers) : null,
        record.response?.body ?? null,
        record.response?.truncated ?? false,
      ],
    );
    // A redelivery started a new cycle while this attempt was in flight: its job decides what follows.
    if (rows[0]?.current !== true) return;
    if (record.outcome === 'pending' && record.nextAttemptAt && record.nextJobAttempt) {
      const job = deliveryJob(
        { deliveryId: record.deliveryId, attempt: record.nextJobAttempt, cycle: record.cycle, userId: record.userId },
        record.nextAttemptAt,
      );
      await client.query(enqueueDeliveryJobsSql('$1'), [JSON.stringify([job])]);
    }
  });
}

/** A delivery whose webhook went away before its turn: closed without a request. */
export async function abandonDelivery(pool: pg.Pool, deliveryId: string): Promise<void> {
  await pool.query(
    `update webhook_deliveries set status = 'failed', next_attempt_at = null, completed_at = now(), updated_at = now()
      where id = $1 and status = 'pending'`,
    [deliveryId],
  );
}

/**
 * Puts a job that found its user's slots taken back in the queue, as it was (a new job under the
 * same key: graphile-worker keeps the running one's key off it). Only while the delivery is still
 * pending in the job's cycle, checked under the delivery's row lock: a redelivery that started a
 * newer cycle meanwhile has its own job, which this one must not replace.
 */
export async function putBackDeliveryJob(pool: pg.Pool, payload: DeliveryJobPayload & { userId: string }): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `select 1 from webhook_deliveries where id = $1 and cycle = $2 and status = 'pending' for update`,
      [payload.deliveryId, payload.cycle],
    );
    if (rowCount === 0) return false;
    await client.query(enqueueDeliveryJobsSql('$1'), [JSON.stringify([deliveryJob(payload)])]);
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
    const { rowCount } = await client.query(
      `select 1 from webhook_deliveries where id = $1 and cycle = $2 and status = 'pending' for update`,
      [payload.deliveryId, payload.cycle],
    );
    if (rowCount === 0) return false;
    const job = deliveryJob(payload, new Date(Date.now() + payload.heldMs));
    await client.query(enqueueDeliveryJobsSql('$1'), [JSON.stringify([job])]);
    return true;
  });
}
