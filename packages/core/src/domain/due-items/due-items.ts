/**
 * Everything that falls due in a world as its clock moves (docs/concepts/clock-and-schedules.md): schedule occurrences,
 * pending transactions that settle or expire, and payments' steps on the clearing calendar (payments/payment-steps.ts). They fire one at a time in due-time order (ties:
 * settlements and expiries, then schedule runs, then payment steps, then by id), each effective at its own due time
 * and each in its own database transaction together with the clock reaching that time. A crash
 * between two items leaves a consistent world: everything due up to the clock's now has fired,
 * nothing after it; running again continues where it stopped, and no item can fire twice (a
 * schedule run is keyed by (schedule, n), a transition does nothing to a row that moved on).
 *
 * Payment steps due at the same instant (a clearing session's entries, its settlements) fire
 * together, up to PAYMENT_BATCH of them in one database transaction in their order, with the clock
 * reaching that instant: a session of 10,000 payments is 100 transactions of 100 steps, not 10,000
 * transactions, and each batch is set-wise (payments/session-batch.ts: three statements, not a few per
 * step). A crash still leaves a consistent world (a batch commits whole or not at all, each
 * step still checks that it is due), and firing a payment's step never makes another item due at
 * or before its own instant (the next step is an hour or days later), so the order is unchanged.
 *
 * Callers hold the world's clock lock (domain/clock/clock.ts), so one pass per world runs at a time.
 */
import type { EntityManager } from '@sandbank/db';
import { moveClockTo, tryClockLock, userNow } from '../clock/clock.ts';
import { firePaymentSteps } from '../payments/session-batch.ts';
import { runScheduleOccurrence } from '../schedules/run-occurrence.ts';
import { settleDueTransaction } from '../transactions/settle-due.ts';
import { type DueItemRow, selectNextDueItems, selectWorldsWithDueItems } from './queries.ts';

export interface FiredCounts {
  scheduled: number;
  settled: number;
  expired: number;
  /** Payment steps: a session's entry (ACSP), its settlement or rejection, a return. */
  payments: number;
  /** Events written by what fired. */
  events: number;
}

const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * Fires everything due in one world up to `until`, in due-time order. With `moveClock`, each item's
 * transaction also moves the world's clock to its due time (an advance); the worker's pass on wall
 * time leaves the clock alone (it is there already).
 */
export async function fireDueItems(
  em: EntityManager,
  { userId, until, moveClock }: { userId: string; until: Date; moveClock: boolean },
): Promise<FiredCounts> {
  const fired: FiredCounts = { scheduled: 0, settled: 0, expired: 0, payments: 0, events: 0 };
  const untilIso = until.toISOString();
  let previous = '';
  for (;;) {
    const items = await selectNextDueItems(em, userId, untilIso, PAYMENT_BATCH);
    const [item] = items;
    if (!item) return fired;
    const dueAt = new Date(item.due_at);
    // Every item leaves the due set when it fires; one that stays would loop forever.
    const key = `${item.kind}:${item.id}:${dueAt.toISOString()}`;
    if (key === previous) throw new Error(`due item ${key} did not move when fired`);
    previous = key;
    await em.transactional(async (tx) => {
      if (item.kind === 'payment') {
        const paymentIds = paymentsDueWith(items, dueAt).map((payment) => payment.id);
        const batch = await firePaymentSteps(tx, { userId, paymentIds, until });
        fired.payments += batch.payments;
        fired.events += batch.events;
      } else if (item.kind === 'schedule') {
        const outcome = await runScheduleOccurrence(tx, { scheduleId: item.id, dueAt });
        if (outcome.kind !== 'skipped') fired.scheduled += 1;
        if (outcome.kind !== 'skipped') fired.events += outcome.events ?? 0;
      } else {
        const due = { userId, transactionId: item.id, settleAt: asDate(item.settle_at), expireAt: asDate(item.expire_at) };
        const outcome = await settleDueTransaction(tx, due, until);
        if (outcome !== 'unchanged') {
          fired[outcome] += 1;
          fired.events += 1;
        }
      }
      if (moveClock) await moveClockTo(tx, userId, dueAt);
    });
  }
}

/** At most this many payment steps of one instant fire in one database transaction. */
const PAYMENT_BATCH = 100;

/** The leading run of payment steps due at `dueAt` (the items come in firing order). */
function paymentsDueWith(items: DueItemRow[], dueAt: Date): DueItemRow[] {
  const run: DueItemRow[] = [];
  for (const item of items) {
    if (item.kind !== 'payment' || new Date(item.due_at).getTime() !== dueAt.getTime()) break;
    run.push(item);
  }
  return run;
}

/** Worlds with something due by their own clock, oldest due first. */

/**
 * Items also fall due as wall time passes (the clock keeps moving): one pass over the worlds with
 * something due now, each up to its own now. A world whose clock lock is held (an advance or a
 * reset is running) is skipped: that advance fires its items.
 */
export async function fireDueItemsEverywhere(
  em: EntityManager,
  { worlds }: { worlds: number },
): Promise<FiredCounts & { worlds: number }> {
  const total = { scheduled: 0, settled: 0, expired: 0, payments: 0, events: 0, worlds: 0 };
  for (const userId of await selectWorldsWithDueItems(em, worlds)) {
    const lock = await tryClockLock(em, userId);
    if (!lock) continue;
    try {
      const fired = await fireDueItems(em, { userId, until: await userNow(em, userId), moveClock: false });
      total.scheduled += fired.scheduled;
      total.settled += fired.settled;
      total.expired += fired.expired;
      total.payments += fired.payments;
      total.events += fired.events;
      total.worlds += 1;
    } finally {
      await lock.release();
    }
  }
  return total;
}
