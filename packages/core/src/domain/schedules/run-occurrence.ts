/**
 * Firing one occurrence of a schedule (docs/concepts/clock-and-schedules.md): what the due-item runner (domain/due-items/due-items.ts)
 * calls for each schedule run that falls due. Apart from schedules.ts, which creates schedules and
 * runs their backfill through the due-item runner: the runner and the backfill import each other's
 * modules only one way.
 */
import type { EntityManager } from '@sandbank/db';
import type { Category } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';
import { createScheduledPayment } from '../payments/create-payment.ts';
import { simulateTransaction } from '../simulations/simulate-transaction.ts';
import { insertScheduleRun, lockScheduleDueAt, setScheduleNextRun } from './queries.ts';
import { recurrence } from './recurrence.ts';

/** `events`: what the run wrote (a standing order's rejected payment still writes its payment.created). */
export type RunOutcome = { kind: 'booked'; events: number } | { kind: 'failed'; events?: number } | { kind: 'skipped' };

/**
 * Fires occurrence `n` of a schedule, due at `dueAt`, inside the caller's transaction: books it
 * effective at its due time, records the run, and moves the schedule to its next occurrence. The
 * schedule row is locked and must still be at (dueAt, n): a run that already happened is skipped.
 */
export async function runScheduleOccurrence(
  em: EntityManager,
  { scheduleId, dueAt }: { scheduleId: string; dueAt: Date },
): Promise<RunOutcome> {
  const schedule = await lockScheduleDueAt(em, scheduleId, dueAt);
  if (!schedule) return { kind: 'skipped' };
  const n = schedule.next_run_n;
  let outcome: RunOutcome;
  let transactionId: string | null = null;
  let failure: AppError | null = null;
  /** A standing order's payment that was made and rejected: its ISO reason is the run's failure. */
  let rejection: { code: string; message: string } | null = null;
  try {
    if (schedule.payment) {
      // A standing order: the occurrence is a payment, made at its due instant under the occurrence's own key.
      const made = await createScheduledPayment(em, {
        userId: schedule.user_id,
        key: `sch_${schedule.id}_${n}`,
        at: dueAt,
        fromAccountId: schedule.account_id,
        to: schedule.payment.to,
        amount: -Number(schedule.amount),
        description: schedule.description,
        scheme: schedule.payment.scheme,
      });
      const { payment } = made;
      // A rejected payment (AM04 without funds, …) is the occurrence's record; the schedule goes on.
      if (payment.status === 'RJCT') {
        const reason = payment.statusReason ?? { code: 'RJCT', message: 'Rejected' };
        rejection = { code: reason.code, message: `Payment ${payment.id} rejected: ${reason.message}` };
        outcome = { kind: 'failed', events: made.replayed ? 0 : 1 };
      } else {
        transactionId = payment.transactionIds[0] ?? null;
        // payment.created and one transaction.created per leg.
        outcome = { kind: 'booked', events: made.replayed ? 0 : 1 + payment.transactionIds.length };
      }
    } else {
      const booked = await simulateTransaction(em, {
        userId: schedule.user_id,
        accountId: schedule.account_id,
        amount: Number(schedule.amount),
        description: schedule.description,
        merchant: schedule.merchant,
        category: schedule.category as Category | null,
        externalTxnId: `sch_${schedule.id}_${n}`,
        date: dueAt,
        at: dueAt,
        status: schedule.status,
        settleAfter: schedule.settle_after ?? undefined,
      });
      transactionId = booked.transaction.id;
      outcome = { kind: 'booked', events: booked.replayed ? 0 : 1 };
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    failure = error;
    outcome = { kind: 'failed' };
  }
  await insertScheduleRun(em, {
    scheduleId: schedule.id,
    n,
    dueAt,
    transactionId,
    failureCode: rejection?.code ?? failure?.appCode ?? null,
    failureMessage: rejection?.message ?? failure?.message ?? null,
  });
  const closed = failure?.appCode === 'ACCOUNT_CLOSED' || failure?.appCode === 'NOT_FOUND';
  const next = closed ? null : recurrence(schedule.rrule, schedule.timezone, new Date(schedule.start_at)).next(dueAt, false);
  await setScheduleNextRun(em, { scheduleId: schedule.id, nextRunAt: next, nextRunN: n + 1 });
  return outcome;
}
