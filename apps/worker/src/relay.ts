/**
 * The outbox relay. The simulation commits an `events` row with its transaction and enqueues
 * nothing (graphile-worker's `add_job` always NOTIFYs, and Postgres serialises the commits of
 * notifying transactions, which halves simulation throughput). This loop turns events into
 * delivery jobs instead: in one database transaction it claims a batch of unrelayed events
 * (`FOR UPDATE SKIP LOCKED`, so several workers relay at once without waiting on each other),
 * creates one delivery per subscribed active webhook of the event's owner (`ON CONFLICT DO
 * NOTHING` on (webhook, event)), enqueues their jobs with one `add_jobs` call (one NOTIFY per
 * batch) and marks the events relayed. A crash anywhere before the commit leaves the events
 * unrelayed for the next pass; after it, everything is done: each event is relayed exactly once.
 *
 * A Plaid Item's webhook (`plaid_item_id`) gets the transaction events of the Item's accounts and the
 * Item's own `plaid.webhook` notifications, while the Item is not removed (docs/faces/plaid.md).
 * Transaction events become `SYNC_UPDATES_AVAILABLE`, which tells the app to call /transactions/sync
 * and says nothing of the change itself, so a burst of them (every one relayed in the same batch)
 * makes one delivery per Item, on the batch's last event, as Plaid sends one webhook for a refresh
 * and not one per transaction. That delivery is created after every event of the batch committed,
 * so the sync it prompts sees them all; a later event makes a delivery of its own.
 */

import { setTimeout as delay } from 'node:timers/promises';
import { deliveryJob } from '@sandbank/webhooks';
import type pg from 'pg';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { enqueueDeliveryJobs } from './delivery/queries.ts';
import { claimUnrelayedEvents, insertDeliveriesAndMarkRelayed, type RelayPair } from './queries.ts';
import { inTransaction } from './transaction.ts';

export const RELAY_BATCH_SIZE = 200;

export interface RelayResult {
  events: number;
  deliveries: number;
}

export async function relayBatch(pool: pg.Pool, batchSize = RELAY_BATCH_SIZE): Promise<RelayResult> {
  return inTransaction(pool, async (client) => {
    const rows = await claimUnrelayedEvents(client, batchSize);
    const eventIds = [...new Set(rows.map((row) => row.event_id))];
    if (eventIds.length === 0) return { events: 0, deliveries: 0 };
    const pairs = coalesceSyncUpdates(rows.filter((row): row is RelayPair & { webhook_id: string } => row.webhook_id !== null));
    const owners = new Map(pairs.map((row) => [row.webhook_id, row.user_id]));
    const created = await insertDeliveriesAndMarkRelayed(client, {
      deliveries: pairs.map((row) => ({ id: uuidv7(), webhook_id: row.webhook_id, event_id: row.event_id })),
      eventIds,
    });
    if (created.length > 0) {
      const jobs = created.map((row) => deliveryJob({ deliveryId: row.id, userId: owners.get(row.webhook_id) ?? '' }));
      await enqueueDeliveryJobs(client, jobs);
    }
    return { events: eventIds.length, deliveries: created.length };
  });
}

/** One SYNC_UPDATES_AVAILABLE per Plaid webhook in the batch (on its last event); every other pair as it is. */
function coalesceSyncUpdates<T extends RelayPair & { webhook_id: string }>(pairs: T[]): T[] {
  const lastSync = new Map<string, T>();
  for (const pair of pairs) if (pair.sync_update) lastSync.set(pair.webhook_id, pair);
  return pairs.filter((pair) => !pair.sync_update || lastSync.get(pair.webhook_id) === pair);
}

export interface RelayLoop {
  stop(): Promise<void>;
}

/** Relays until stopped: again at once while batches come back full, else after `pollMs`. */
export function startRelay({ pool, pollMs, logger }: { pool: pg.Pool; pollMs: number; logger: Logger }): RelayLoop {
  const controller = new AbortController();
  const loop = (async () => {
    while (!controller.signal.aborted) {
      let full = false;
      try {
        const result = await relayBatch(pool);
        full = result.events === RELAY_BATCH_SIZE;
        if (result.events > 0) logger.debug(result, 'relayed events');
      } catch (error) {
        logger.error({ err: error }, 'relay failed; retrying');
        await sleep(Math.max(pollMs, 1000), controller.signal);
      }
      if (!full) await sleep(pollMs, controller.signal);
    }
  })();
  return {
    async stop() {
      controller.abort();
      await loop;
    },
  };
}

/** Waits `ms`, or less when `signal` aborts (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
