/**
 * The SQL of webhook deliveries and the webhook lab (docs/architecture.md, "The schema"): one named
 * function per statement; `deliveries.ts` and `lab.ts` keep the rules.
 */
import type { EntityManager } from '@sandbank/db';
import { type deliveryJob, enqueueDeliveryJobsSql } from '@sandbank/webhooks';

/** The Plaid Item a webhook belongs to (its delivery row), or null for the user's own webhooks. */
export async function selectWebhookPlaidItem(em: EntityManager, webhookId: string): Promise<string | null> {
  const [row] = await em.execute<{ plaid_item_id: string | null }[]>('select plaid_item_id from webhooks where id = ?', [
    webhookId,
  ]);
  return row?.plaid_item_id ?? null;
}

/**
 * A pending delivery of each event to the webhook: new rows, or a new cycle of the existing ones.
 * `deliveries` pairs each event with the id a new row takes.
 */
export function upsertDeliveries(
  tx: EntityManager,
  webhookId: string,
  deliveries: { id: string; event_id: string }[],
): Promise<{ id: string; cycle: number; event_id: string }[]> {
  return tx.execute<{ id: string; cycle: number; event_id: string }[]>(
    `insert into webhook_deliveries (id, webhook_id, event_id, next_attempt_at)
     select ids.id, ?, ids.event_id, now()
       from json_to_recordset(?::json) as ids (id uuid, event_id uuid)
     on conflict (webhook_id, event_id) do update
        set status = 'pending', next_attempt_at = now(), completed_at = null, updated_at = now(),
            cycle = webhook_deliveries.cycle + 1
     returning id, cycle, event_id`,
    [webhookId, JSON.stringify(deliveries)],
  );
}

/** Starts a new cycle of one delivery, due now. */
export function renewDelivery(
  tx: EntityManager,
  deliveryId: string,
): Promise<{ cycle: number; next_attempt_at: Date; updated_at: Date }[]> {
  return tx.execute<{ cycle: number; next_attempt_at: Date; updated_at: Date }[]>(
    `update webhook_deliveries
        set status = 'pending', next_attempt_at = now(), completed_at = null, updated_at = now(), cycle = cycle + 1
      where id = ? returning cycle, next_attempt_at, updated_at`,
    [deliveryId],
  );
}

/** Queues the worker's delivery jobs (graphile-worker), in the caller's transaction. */
export async function enqueueDeliveryJobs(tx: EntityManager, jobs: ReturnType<typeof deliveryJob>[]): Promise<void> {
  await tx.execute(enqueueDeliveryJobsSql('?'), [JSON.stringify(jobs)]);
}

/** A `webhook.test` event, relayed already (the relay must not hand it to the user's other webhooks). */
export async function insertTestEvent(
  tx: EntityManager,
  event: { id: string; type: string; userId: string; createdAt: Date },
): Promise<void> {
  await tx.execute(
    `insert into events (id, type, user_id, payload, created_at, relayed_at) values (?, ?, ?, '{}'::jsonb, ?, now())`,
    [event.id, event.type, event.userId, event.createdAt],
  );
}
