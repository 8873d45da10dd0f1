/**
 * The cluster drill's verdict after a fault, read from the new primary: acknowledged bookings
 * missing and not already counted after an earlier fault (`lost`), bookings in the ledger more
 * than once (`doubled`), balances that differ from the sum of their entries (`wrongBalances`),
 * and events of drill bookings that had not reached the drill's webhook receiver two minutes
 * after the fault (`undelivered`).
 */
import type pg from 'pg';
import type { DrillReceiver } from './drill-receiver.ts';

export interface LedgerVerdict {
  acknowledged: number;
  lost: number;
  doubled: number;
  wrongBalances: number;
  events: number;
  undelivered: number;
  /** Up to 5 undelivered events with their outbox and delivery state, to say where they stopped. */
  undeliveredSample: unknown[];
}

/** How long after a fault every event of a booking made so far must have been delivered. */
export const DELIVERY_BOUND_MS = 120_000;

export async function checkAfterFault(
  db: pg.Client,
  acknowledged: ReadonlyMap<string, string>,
  receiver: DrillReceiver,
  faultAt: number,
  log: (message: string) => void,
  /** Bookings an earlier scenario already found lost (added to here): each loss is counted once. */
  counted: Set<string>,
): Promise<LedgerVerdict> {
  // Snapshot what clients were told before reading the ledger: all of it must be there.
  const told = [...acknowledged];
  const { rows: transactions } = await db.query<{ id: string; external_txn_id: string }>(
    "select id, external_txn_id from transactions where external_txn_id like 'drill-%'",
  );
  const byExternal = new Map<string, string[]>();
  for (const row of transactions) byExternal.set(row.external_txn_id, [...(byExternal.get(row.external_txn_id) ?? []), row.id]);
  const missing = told.filter(([external, id]) => !byExternal.get(external)?.includes(id)).map(([external]) => external);
  const lost = missing.filter((external) => !counted.has(external)).length;
  const doubled = [...byExternal.values()].filter((ids) => ids.length > 1).length;

  const { rows: wrong } = await db.query<{ count: number }>(
    `select count(*)::int as count from (
       select a.id from accounts a left join transactions t on t.account_id = a.id
        group by a.id, a.balance having a.balance <> coalesce(sum(t.amount), 0) or a.balance < 0) w`,
  );

  const { rows: events } = await db.query<{ id: string }>(
    `select e.id from events e join transactions t on t.id::text = e.payload->'transaction'->>'id'
      where t.external_txn_id like 'drill-%'`,
  );
  let undelivered = events.filter((event) => !receiver.received.has(event.id)).length;
  while (undelivered > 0 && performance.now() < faultAt + DELIVERY_BOUND_MS) {
    log(`waiting for ${undelivered} deliveries…`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    undelivered = events.filter((event) => !receiver.received.has(event.id)).length;
  }
  const notReceived = events.filter((event) => !receiver.received.has(event.id)).map((event) => event.id);
  const { rows: undeliveredSample } = await db.query(
    `select e.id, e.created_at, e.relayed_at, d.status, d.attempt_count, d.last_status_code, d.next_attempt_at
       from events e left join webhook_deliveries d on d.event_id = e.id
      where e.id = any ($1::uuid[]) limit 5`,
    [notReceived.slice(0, 5)],
  );
  // Only now, with every read done (an interrupted check runs again from the start).
  for (const external of missing) counted.add(external);
  return {
    acknowledged: told.length,
    lost,
    doubled,
    wrongBalances: wrong[0]?.count ?? -1,
    events: events.length,
    undelivered,
    undeliveredSample,
  };
}
