/**
 * The SQL of webhook deliveries and the webhook lab (docs/architecture.md, "The schema"): one named
 * function per statement, written with Kysely over the generated tables (`kysely(em)`);
 * `deliveries.ts` and `lab.ts` keep the rules.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { type deliveryJob, enqueueDeliveryJobsSql } from '@sandbank/webhooks';
import { type NotNull, sql } from 'kysely';

const NOW = sql<string>`now()`;

/** The Plaid Item a webhook belongs to (its delivery row), or null for the user's own webhooks. */
export async function selectWebhookPlaidItem(em: EntityManager, webhookId: string): Promise<string | null> {
  const row = await kysely(em).selectFrom('webhooks').select('plaid_item_id').where('id', '=', webhookId).executeTakeFirst();
  return row?.plaid_item_id ?? null;
}

/**
 * A pending delivery of each event to the webhook: new rows, or a new cycle of the existing ones.
 * `deliveries` pairs each event with the id a new row takes (one JSON parameter, however many).
 */
export function upsertDeliveries(
  tx: EntityManager,
  webhookId: string,
  deliveries: { id: string; event_id: string }[],
): Promise<Pick<Row<'webhook_deliveries'>, 'id' | 'cycle' | 'event_id'>[]> {
  const db = kysely(tx);
  const ids = sql<{ id: string; event_id: string }>`json_to_recordset(${JSON.stringify(deliveries)}::json)`.as<'ids'>(
    sql`ids (id uuid, event_id uuid)`,
  );
  return db
    .insertInto('webhook_deliveries')
    .columns(['id', 'webhook_id', 'event_id', 'next_attempt_at'])
    .expression(
      db.selectFrom(ids).select(['ids.id', sql<string>`${webhookId}::uuid`.as('webhook_id'), 'ids.event_id', NOW.as('now')]),
    )
    .onConflict((conflict) =>
      conflict.columns(['webhook_id', 'event_id']).doUpdateSet({
        status: 'pending',
        next_attempt_at: NOW,
        completed_at: null,
        updated_at: NOW,
        cycle: sql<number>`webhook_deliveries.cycle + 1`,
      }),
    )
    .returning(['id', 'cycle', 'event_id'])
    .execute();
}

/** Starts a new cycle of one delivery, due now. */
export function renewDelivery(
  tx: EntityManager,
  deliveryId: string,
): Promise<{ cycle: number; next_attempt_at: string; updated_at: string }[]> {
  return kysely(tx)
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: NOW, completed_at: null, updated_at: NOW, cycle: sql<number>`cycle + 1` })
    .where('id', '=', deliveryId)
    .returning(['cycle', 'next_attempt_at', 'updated_at'])
    .$narrowType<{ next_attempt_at: NotNull }>()
    .execute();
}

// The enqueue's text is shared with the worker (`@sandbank/webhooks`); its one parameter goes in here.
const [BEFORE_JOBS = '', AFTER_JOBS = ''] = enqueueDeliveryJobsSql('\u0000').split('\u0000');

/** Queues the worker's delivery jobs (graphile-worker), in the caller's transaction. */
export async function enqueueDeliveryJobs(tx: EntityManager, jobs: ReturnType<typeof deliveryJob>[]): Promise<void> {
  await sql`${sql.raw(BEFORE_JOBS)}${JSON.stringify(jobs)}${sql.raw(AFTER_JOBS)}`.execute(kysely(tx));
}

/** A `webhook.test` event, relayed already (the relay must not hand it to the user's other webhooks). */
export async function insertTestEvent(
  tx: EntityManager,
  event: { id: string; type: string; userId: string; createdAt: Date },
): Promise<void> {
  await kysely(tx)
    .insertInto('events')
    .values({ id: event.id, type: event.type, user_id: event.userId, payload: {}, created_at: event.createdAt, relayed_at: NOW })
    .execute();
}
