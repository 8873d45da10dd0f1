/**
 * The SQL of webhook deliveries (docs/architecture.md, "The schema"): one named function per
 * statement, on the worker's pg pool or, where a statement belongs to a transaction, on the client
 * that runs it (store.ts opens those transactions; the delivery task calls the rest).
 */
import type { Row } from '@sandbank/db';
import type { AttemptFault, WebhookFaults } from '@sandbank/schemas';
import { type deliveryJob, enqueueDeliveryJobsSql } from '@sandbank/webhooks';
import type pg from 'pg';
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

/** The delivery with its webhook and event, read before the request; null when the delivery is gone. */
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

/** One attempt as the task saw it, and what follows it. */
export interface NewAttempt {
  id: string;
  deliveryId: string;
  /** The cycle of the job that made the attempt; an older cycle's attempt is recorded but moves nothing. */
  cycle: number;
  webhookId: string;
  startedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** `pending` when another try follows (at `nextAttemptAt`). */
  outcome: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  /** Set when the receiver asked to stop (410 Gone). */
  disableReason: string | null;
  /** The webhook lab's faults this attempt carried. */
  faults: AttemptFault[];
  /** The request as sent: the headers Sandbank set (signatures, never the secret) and the body, byte for byte. */
  request: { url: string; headers: Record<string, string>; body: string };
  /** The receiver's answer (its status even when a failure fault counted another); null when none came. */
  response: ReceivedAnswer | null;
}

/**
 * In one statement: inserts the attempt (numbered after the delivery's count), disables the webhook
 * when the receiver asked to stop, and moves the delivery to the attempt's outcome when the attempt
 * belongs to its current cycle (otherwise only the count and the last status code change). Returns
 * whether the attempt was of the current cycle: false when a redelivery started a newer one, or the
 * delivery is gone.
 */
export async function insertAttemptAndAdvanceDelivery(client: pg.PoolClient, attempt: NewAttempt): Promise<boolean> {
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
      attempt.id,
      attempt.deliveryId,
      attempt.startedAt,
      attempt.durationMs,
      attempt.statusCode,
      attempt.error,
      attempt.nextAttemptAt,
      attempt.outcome,
      attempt.webhookId,
      attempt.disableReason,
      attempt.cycle,
      JSON.stringify(attempt.faults),
      attempt.request.url,
      JSON.stringify(attempt.request.headers),
      attempt.request.body,
      attempt.response?.status ?? null,
      attempt.response ? JSON.stringify(attempt.response.headers) : null,
      attempt.response?.body ?? null,
      attempt.response?.truncated ?? false,
    ],
  );
  return rows[0]?.current === true;
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
 * Locks the delivery's row if it is still pending in `cycle`, in the caller's transaction; false
 * when it is not (a redelivery started a newer cycle, or the cycle ended).
 */
export async function lockPendingDelivery(
  client: pg.PoolClient,
  { deliveryId, cycle }: { deliveryId: string; cycle: number },
): Promise<boolean> {
  const { rowCount } = await client.query(
    `select 1 from webhook_deliveries where id = $1 and cycle = $2 and status = 'pending' for update`,
    [deliveryId, cycle],
  );
  return rowCount !== 0;
}

/** Queues delivery jobs (graphile-worker's `add_jobs`, one NOTIFY for the lot), in the caller's transaction. */
export async function enqueueDeliveryJobs(client: pg.PoolClient, jobs: ReturnType<typeof deliveryJob>[]): Promise<void> {
  await client.query(enqueueDeliveryJobsSql('$1'), [JSON.stringify(jobs)]);
}

/** A Plaid signing key, its private JWK sealed (text columns: the same on this pool as in the generated types). */
export type PlaidSigningKeyRow = Pick<Row<'plaid_signing_keys'>, 'kid' | 'private_key_ciphertext' | 'private_key_key_id'>;

/** The current Plaid signing key (not retired by a rotation); undefined before the API made one. */
export async function selectCurrentPlaidSigningKey(pool: pg.Pool): Promise<PlaidSigningKeyRow | undefined> {
  const { rows } = await pool.query<PlaidSigningKeyRow>(
    'select kid, private_key_ciphertext, private_key_key_id from plaid_signing_keys where retired_at is null',
  );
  return rows[0];
}
