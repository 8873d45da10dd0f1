/** The drill's verdict: read the ledger and compare it with what clients and the receiver saw. */
import type pg from 'pg';
import type { DrillReceiver } from './drill-receiver.ts';

export async function checkLedger(
  db: pg.Client,
  acknowledged: Map<string, string>,
  receiver: DrillReceiver,
  log: (message: string) => void,
  /** How fast the worker can deliver to this receiver at most (its concurrency ÷ the mean answer time). */
  receiverPacePerSecond: number,
) {
  const { rows: transactions } = await db.query<{ id: string; external_txn_id: string }>(
    "select id, external_txn_id from transactions where external_txn_id like 'drill-%'",
  );
  const byExternal = new Map<string, string[]>();
  for (const row of transactions) byExternal.set(row.external_txn_id, [...(byExternal.get(row.external_txn_id) ?? []), row.id]);
  const missing = [...acknowledged].filter(([external, id]) => !byExternal.get(external)?.includes(id)).length;
  const duplicated = [...byExternal.values()].filter((ids) => ids.length > 1).length;

  const { rows: balances } = await db.query<{ id: string; balance: string; total: string }>(
    'select a.id, a.balance, coalesce(sum(t.amount), 0) as total from accounts a left join transactions t on t.account_id = a.id group by a.id',
  );
  const wrongBalances = balances.filter((row) => row.balance !== row.total || Number(row.balance) < 0).length;

  const { rows: eventCounts } = await db.query<{ missing: number; extra: number }>(
    `select (select count(*)::int from transactions t where not exists
              (select 1 from events e where e.payload->'transaction'->>'id' = t.id::text)) as missing,
            (select count(*)::int from (select payload->'transaction'->>'id' from events group by 1 having count(*) > 1) d) as extra`,
  );

  // Every event of a drill transaction must reach its owner's webhook; wait for stragglers and
  // retries. The seed's opening balances are booked before the webhook is subscribed, so the
  // relay rightly gives them no delivery: they are counted apart, not expected at the receiver.
  const { rows: events } = await db.query<{ id: string }>(
    `select e.id from events e join transactions t on t.id::text = e.payload->'transaction'->>'id'
      where t.external_txn_id like 'drill-%'`,
  );
  // The slow receiver bounds the drain (the more the API acknowledged, the longer it takes): twice
  // the time it needs at its pace, and never less than three minutes.
  const deadline = performance.now() + Math.max(180_000, (2 * events.length * 1000) / receiverPacePerSecond);
  let undelivered = events.filter((event) => !receiver.received.has(event.id)).length;
  while (undelivered > 0 && performance.now() < deadline) {
    log(`waiting for ${undelivered} deliveries…`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    undelivered = events.filter((event) => !receiver.received.has(event.id)).length;
  }
  const { rows: allEvents } = await db.query<{ count: number; unrelayed: number }>(
    'select count(*)::int as count, (count(*) filter (where relayed_at is null))::int as unrelayed from events',
  );
  const redelivered = [...receiver.received.values()].filter((count) => count > 1).length;
  const counts = {
    acknowledgedSimulations: acknowledged.size,
    ledgerRows: transactions.length,
    missingAcknowledged: missing,
    duplicatedRows: duplicated,
    accounts: balances.length,
    wrongBalances,
    transactionsWithoutEvent: eventCounts[0]?.missing ?? -1,
    duplicateEvents: eventCounts[0]?.extra ?? -1,
    events: allEvents[0]?.count ?? -1,
    unrelayedEvents: allEvents[0]?.unrelayed ?? -1,
    drillEvents: events.length,
    undeliveredEvents: undelivered,
    eventsDeliveredMoreThanOnce: redelivered,
  };
  const ok =
    counts.missingAcknowledged === 0 &&
    counts.duplicatedRows === 0 &&
    counts.wrongBalances === 0 &&
    counts.transactionsWithoutEvent === 0 &&
    counts.duplicateEvents === 0 &&
    counts.unrelayedEvents === 0 &&
    counts.drillEvents === counts.ledgerRows &&
    counts.undeliveredEvents === 0;
  return { ok, ...counts };
}
