/**
 * Schedules (docs/concepts/clock-and-schedules.md): a transaction that recurs by an RFC 5545 rule in a time zone. The clock
 * fires each occurrence at its due time (due-items/due-items.ts calls `runScheduleOccurrence`); run n
 * books with the externalTxnId `sch_<scheduleId>_<n>` through the same simulation as any client,
 * so a repeated run changes nothing, and a debit without funds fails that run (recorded) while
 * the schedule goes on.
 *
 * A paused schedule skips the occurrences that fall due while it is paused; resuming picks up at
 * the next occurrence after the world's now.
 */
import type { EntityManager } from '@sandbank/db';
import type { Category, Currency, ExternalScheme } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { subtractIsoDuration } from '../../lib/duration.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { getOwnedAccount } from '../accounts/accounts.ts';
import { userNow, withClockLock } from '../clock/clock.ts';
import { fireDueItems } from '../due-items/due-items.ts';
import { defaultScheme, SCHEME_CURRENCY } from '../payments/schemes.ts';
import {
  deleteOwnedSchedule,
  insertScheduleRow,
  lockOwnedSchedule,
  pauseActiveSchedule,
  type ScheduleRow,
  type ScheduleRunRow,
  type ScheduleState,
  type StandingOrderPayment,
  selectAccountSchedules,
  selectAccountStatus,
  selectOwnedSchedule,
  selectScheduleRuns,
  setScheduleNextRun,
} from './queries.ts';
import { recurrence, recurrenceProblem } from './recurrence.ts';
import { checkBackfill, checkScheduleLimit } from './schedule-bounds.ts';

export const DEFAULT_TIMEZONE = 'Europe/Warsaw';
/** A schedule may start this far back: its past occurrences fire at once (a backfill). */
const MAX_BACKFILL = 'P2Y';

/** Why a schedule may not start at `startAt` in a world whose now is `now`, or null. Scenarios share the rule. */
export function startAtProblem(startAt: Date, now: Date): string | null {
  return startAt < subtractIsoDuration(now, MAX_BACKFILL) ? 'Must not lie more than two years back' : null;
}

export interface CreateScheduleParams {
  userId: string;
  accountId: string;
  amount: number;
  description: string;
  merchant?: string | null | undefined;
  category?: Category | null | undefined;
  rrule: string;
  timezone?: string | undefined;
  /** The first possible occurrence (and the time of day of each); defaults to the world's now. */
  startAt?: Date | undefined;
  status?: 'pending' | 'posted' | undefined;
  settleAfter?: string | undefined;
  /** How long a backfill waits for the world's clock lock before 409 CLOCK_ADVANCING (default: the clock's 30 s). */
  clockWaitMs?: number;
  /** A standing order: each occurrence pays -amount to this IBAN or own account (payments domain) instead of booking a transaction. */
  payment?: StandingOrderPayment | null | undefined;
  /** LIMIT_SCHEDULES_PER_ACCOUNT and LIMIT_DUE_ITEMS_PER_REQUEST (schedule-bounds.ts). */
  limits: { schedulesPerAccount: number; dueItemsPerRequest: number };
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });

export async function createSchedule(em: EntityManager, params: CreateScheduleParams): Promise<ScheduleRow> {
  const account = await getOwnedAccount(em, { userId: params.userId, accountId: params.accountId });
  if (account.status === 'closed') throw new AppError('ACCOUNT_CLOSED', 'The account is closed');
  const now = await userNow(em, params.userId);
  const startAt = params.startAt ?? now;
  const tooEarly = startAtProblem(startAt, now);
  if (tooEarly) throw invalid('startAt', tooEarly);
  const timezone = params.timezone ?? DEFAULT_TIMEZONE;
  const problem = recurrenceProblem(params.rrule, timezone, startAt);
  if (problem) throw invalid(problem.field, problem.message);
  const status = params.status ?? 'posted';
  if (status === 'posted' && params.settleAfter) throw invalid('settleAfter', 'Only a pending schedule settles');
  // A UUID is one id however it is spelled: the payee is stored as PostgreSQL prints it (a fork finds its copy by that text).
  const payment =
    params.payment && 'accountId' in params.payment.to
      ? { to: { accountId: params.payment.to.accountId.toLowerCase() } }
      : params.payment;
  const paymentProblem = standingOrderProblem({
    amount: params.amount,
    payment: payment ?? null,
    status,
    settleAfter: params.settleAfter,
  });
  if (paymentProblem) throw invalid(paymentProblem.field, paymentProblem.message);
  if (payment)
    await checkStandingOrderPayment(em, { userId: params.userId, accountId: account.id, payment }, account.currency as Currency);
  const schedule: NewSchedule = {
    userId: params.userId,
    accountId: params.accountId,
    amount: params.amount,
    description: params.description,
    merchant: params.merchant ?? null,
    category: params.category ?? null,
    rrule: params.rrule,
    timezone,
    startAt,
    status,
    settleAfter: params.settleAfter ?? null,
    paused: false,
    createdAt: now,
    payment: payment ?? null,
  };
  const firstRun = firstOccurrence(schedule);
  const insert = () =>
    em.transactional(async (tx) => {
      await checkScheduleLimit(tx, { accountId: params.accountId, limit: params.limits.schedulesPerAccount });
      return insertSchedule(tx, schedule);
    });
  if (!firstRun || firstRun > now) {
    const { id } = await insert();
    return getOwnedSchedule(em, { userId: params.userId, scheduleId: id });
  }
  checkBackfill(schedule, now, params.limits.dueItemsPerRequest);
  // A start in the past backfills: its occurrences up to now fire at once, in order, as the clock
  // would have. The world's clock lock comes first, so a busy clock (409 CLOCK_ADVANCING) leaves no
  // schedule behind for a retry to double; each run then commits on its own, as in an advance.
  const id = await withClockLock(
    em,
    params.userId,
    async () => {
      const { id } = await insert();
      await fireDueItems(em, { userId: params.userId, until: await userNow(em, params.userId), moveClock: false });
      return id;
    },
    params.clockWaitMs,
  );
  return getOwnedSchedule(em, { userId: params.userId, scheduleId: id });
}

export interface NewSchedule {
  userId: string;
  accountId: string;
  amount: number;
  description: string;
  merchant: string | null;
  category: Category | null;
  rrule: string;
  timezone: string;
  /** The first possible occurrence; kept to whole seconds (RFC 5545 times have no fractions). */
  startAt: Date;
  status: 'pending' | 'posted';
  settleAfter: string | null;
  paused: boolean;
  createdAt: Date;
  /** A standing order's payment; null (or absent) books a transaction. */
  payment?: StandingOrderPayment | null | undefined;
}

/**
 * Why a standing order (a schedule with a payment) is not one, or null: it pays out (a negative amount, the
 * debit as a transaction would book it), and the payment decides how it books (no status or settleAfter).
 * Scenarios share the rule.
 */
export function standingOrderProblem(schedule: {
  amount: number;
  payment: object | null;
  status?: string | undefined;
  settleAfter?: string | null | undefined;
}): { field: string; message: string } | null {
  if (!schedule.payment) return null;
  if (schedule.amount >= 0) return { field: 'amount', message: 'A standing order pays out: must be negative' };
  if (schedule.status === 'pending' || schedule.settleAfter) {
    return { field: 'status', message: 'A standing order books as its payment does; omit status and settleAfter' };
  }
  return null;
}

/**
 * Why a standing order's payment cannot leave an account in `currency`, or null: a payment to an IBAN needs a
 * scheme that carries the currency (the account's default one, or the one asked for). Checked when the
 * schedule is made, not when it first fires. Scenarios share the rule.
 */
export function standingOrderSchemeProblem(
  payment: { to: object; scheme?: ExternalScheme | undefined },
  currency: Currency,
): { field: string; message: string } | null {
  if (!('iban' in payment.to)) return null;
  const scheme = payment.scheme ?? defaultScheme(currency);
  if (scheme === undefined) {
    return { field: 'payment.scheme', message: `No scheme carries ${currency} payments to an IBAN (PLN: elixir, EUR: sepa)` };
  }
  if (SCHEME_CURRENCY[scheme] !== currency) {
    return { field: 'payment.scheme', message: `${scheme} carries ${SCHEME_CURRENCY[scheme]}, not the account's ${currency}` };
  }
  return null;
}

/**
 * A standing order's payment as `POST …/schedules` accepts it: a scheme that carries the account's currency,
 * or another open account of the same world (an unknown, the same or a closed account is a 400: nothing is made).
 */
async function checkStandingOrderPayment(
  em: EntityManager,
  params: Pick<CreateScheduleParams, 'userId' | 'accountId'> & { payment?: StandingOrderPayment | null | undefined },
  currency: Currency,
): Promise<void> {
  const payment = params.payment;
  if (!payment) return;
  const schemeProblem = standingOrderSchemeProblem(payment, currency);
  if (schemeProblem) throw invalid(schemeProblem.field, schemeProblem.message);
  if (!('accountId' in payment.to)) return;
  const path = 'payment.to.accountId';
  if (payment.to.accountId === params.accountId) throw invalid(path, "Must be another account than the schedule's own");
  const status = await selectAccountStatus(em, params.userId, payment.to.accountId);
  if (status === undefined) throw invalid(path, 'No such account in this world');
  if (status === 'closed') throw invalid(path, 'The account is closed');
}

/**
 * Stores a validated schedule with run 1 next: its first occurrence from `startAt` (none: ended).
 * Returns its id and that first occurrence.
 */
export async function insertSchedule(em: EntityManager, schedule: NewSchedule): Promise<{ id: string; nextRunAt: Date | null }> {
  const id = uuidv7();
  const startAt = wholeSeconds(schedule.startAt);
  const nextRunAt = firstOccurrence(schedule);
  const state: ScheduleState = !nextRunAt ? 'ended' : schedule.paused ? 'paused' : 'active';
  await insertScheduleRow(em, {
    id,
    userId: schedule.userId,
    accountId: schedule.accountId,
    amount: schedule.amount,
    description: schedule.description,
    merchant: schedule.merchant,
    category: schedule.category,
    rrule: schedule.rrule.trim().replace(/^RRULE:/i, ''),
    timezone: schedule.timezone,
    startAt: startAt.toISOString(),
    status: schedule.status,
    settleAfter: schedule.settleAfter,
    state,
    nextRunAt: nextRunAt ? nextRunAt.toISOString() : null,
    createdAt: schedule.createdAt.toISOString(),
    payment: schedule.payment ?? null,
  });
  return { id, nextRunAt };
}

/** Whole seconds, so run n lands on the same instant every time. */
const wholeSeconds = (instant: Date) => new Date(Math.floor(instant.getTime() / 1000) * 1000);

/** Run 1's due time (null: the rule has no occurrence from `startAt` on). */
function firstOccurrence(schedule: Pick<NewSchedule, 'rrule' | 'timezone' | 'startAt'>): Date | null {
  const startAt = wholeSeconds(schedule.startAt);
  return recurrence(schedule.rrule, schedule.timezone, startAt).next(startAt, true);
}

async function getOwnedSchedule(
  em: EntityManager,
  { userId, scheduleId }: { userId: string; scheduleId: string },
): Promise<ScheduleRow> {
  const row = await selectOwnedSchedule(em, userId, scheduleId);
  if (!row) throw notFound('Schedule');
  return row;
}

export async function listAccountSchedules(
  em: EntityManager,
  { userId, accountId }: { userId: string; accountId: string },
): Promise<ScheduleRow[]> {
  await getOwnedAccount(em, { userId, accountId });
  return selectAccountSchedules(em, userId, accountId);
}

export async function listScheduleRuns(
  em: EntityManager,
  { userId, scheduleId, limit, beforeN }: { userId: string; scheduleId: string; limit: number; beforeN?: number | undefined },
): Promise<ScheduleRunRow[]> {
  await getOwnedSchedule(em, { userId, scheduleId });
  return selectScheduleRuns(em, { scheduleId, beforeN: beforeN ?? 2_147_483_647, limit });
}

/** Pause an active schedule; pausing a paused one changes nothing; an ended one cannot. */
export async function pauseSchedule(
  em: EntityManager,
  { userId, scheduleId }: { userId: string; scheduleId: string },
): Promise<ScheduleRow> {
  const schedule = await getOwnedSchedule(em, { userId, scheduleId });
  if (schedule.state === 'ended') throw new AppError('INVALID_TRANSITION', 'An ended schedule cannot be paused');
  await pauseActiveSchedule(em, scheduleId);
  return getOwnedSchedule(em, { userId, scheduleId });
}

/** Resume a paused schedule at its next occurrence after the world's now (missed ones are skipped). */
export async function resumeSchedule(
  em: EntityManager,
  { userId, scheduleId }: { userId: string; scheduleId: string },
): Promise<ScheduleRow> {
  return em.transactional(async (tx) => {
    const locked = await lockOwnedSchedule(tx, userId, scheduleId);
    if (!locked) throw notFound('Schedule');
    if (locked.state === 'ended') throw new AppError('INVALID_TRANSITION', 'An ended schedule cannot be resumed');
    if (locked.state === 'paused') {
      const now = await userNow(tx, userId);
      const rule = recurrence(locked.rrule, locked.timezone, new Date(locked.start_at));
      const next = rule.next(now, true);
      await setScheduleNextRun(tx, {
        scheduleId,
        nextRunAt: next,
        nextRunN: next ? rule.countBefore(next) + 1 : locked.next_run_n,
      });
    }
    return getOwnedSchedule(tx, { userId, scheduleId });
  });
}

export async function deleteSchedule(
  em: EntityManager,
  { userId, scheduleId }: { userId: string; scheduleId: string },
): Promise<void> {
  await getOwnedSchedule(em, { userId, scheduleId });
  await deleteOwnedSchedule(em, userId, scheduleId);
}
