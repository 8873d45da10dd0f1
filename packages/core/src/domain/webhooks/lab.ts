/**
 * The webhook lab's sends (docs/guides/webhooks.md): a test event to one webhook now, and replaying the event log
 * to a webhook (the same event ids, so receivers deduplicate; new attempts in a new cycle).
 */
import type { EntityManager } from '@sandbank/db';
import { deliveryJob } from '@sandbank/webhooks';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { userNow } from '../clock/clock.ts';
import { cursorOf, LOG_START, positionFromCursor, readLog, WEBHOOK_TEST_EVENT } from '../events/event-log.ts';
import { enqueueDeliveryJobs, insertTestEvent, selectWebhookPlaidItem, upsertDeliveries } from './queries.ts';
import { getOwnedWebhook } from './webhooks.ts';

/** The most events one replay queues; `hasMore` says to continue from the last one. */
export const REPLAY_MAX_EVENTS = 1000;

async function activeWebhook(em: EntityManager, userId: string, webhookId: string) {
  const webhook = await getOwnedWebhook(em, userId, webhookId);
  if (webhook.status !== 'active') {
    throw new AppError('CONFLICT', 'The webhook is disabled; re-enable it (PATCH status: active) to send to it');
  }
  if (await selectWebhookPlaidItem(em, webhook.id))
    throw new AppError('CONFLICT', "A Plaid Item's webhook is driven by the Plaid face's sandbox calls");
  return webhook;
}

/** Queues a delivery per event (a new cycle where one exists) and its first job, in the caller's transaction. */
async function queue(tx: EntityManager, userId: string, webhookId: string, eventIds: readonly string[]) {
  if (eventIds.length === 0) return [];
  const rows = await upsertDeliveries(
    tx,
    webhookId,
    eventIds.map((eventId) => ({ id: uuidv7(), event_id: eventId })),
  );
  await enqueueDeliveryJobs(
    tx,
    rows.map((row) => deliveryJob({ deliveryId: row.id, cycle: row.cycle, userId })),
  );
  return rows;
}

/** A signed `webhook.test` event to this webhook only, now; it is not part of the event log. */
export async function sendTestEvent(em: EntityManager, { userId, webhookId }: { userId: string; webhookId: string }) {
  const webhook = await activeWebhook(em, userId, webhookId);
  return em.transactional(async (tx) => {
    const eventId = uuidv7();
    const createdAt = await userNow(tx, userId);
    // Relayed already: the relay must not hand it to the user's other webhooks.
    await insertTestEvent(tx, { id: eventId, type: WEBHOOK_TEST_EVENT, userId, createdAt });
    const [delivery] = await queue(tx, userId, webhook.id, [eventId]);
    return { eventId, deliveryId: delivery?.id ?? '', createdAt };
  });
}

export interface ReplayParams {
  userId: string;
  webhookId: string;
  /** A cursor of the event log (`nextCursor`): replay the events after it. */
  after?: string | undefined;
  /** A cursor of the event log: replay up to the event it follows, inclusive. */
  until?: string | undefined;
  /** Narrows the webhook's own event kinds. */
  types?: readonly string[] | undefined;
  limit: number;
}

/**
 * Queues the webhook's events of the log again, oldest first, at most `limit` (≤ REPLAY_MAX_EVENTS):
 * the same event ids, each delivery in a new cycle. Only the kinds the webhook subscribes to.
 */
export async function replayEvents(em: EntityManager, { userId, webhookId, after, until, types, limit }: ReplayParams) {
  const webhook = await activeWebhook(em, userId, webhookId);
  const from = after ? positionFromCursor(after, 'after') : LOG_START;
  const to = until ? positionFromCursor(until, 'until') : null;
  const kinds = (webhook.events as string[]).filter((kind) => !types || types.includes(kind));
  if (kinds.length === 0) return { eventIds: [] as string[], hasMore: false, nextCursor: cursorOf(from) };
  const filter = { kind: 'logged', types: kinds, until: to ?? undefined } as const;
  const bounded = Math.min(limit, REPLAY_MAX_EVENTS);
  return em.transactional(async (tx) => {
    const rows = await readLog(tx, { userId, after: from, limit: bounded + 1, filter, columns: 'id' });
    const page = rows.slice(0, bounded);
    await queue(
      tx,
      userId,
      webhook.id,
      page.map((row) => row.id),
    );
    const last = page.at(-1);
    return {
      eventIds: page.map((row) => row.id),
      hasMore: rows.length > bounded,
      nextCursor: cursorOf(last ? { txid: last.txid, seq: last.seq } : from),
    };
  });
}
