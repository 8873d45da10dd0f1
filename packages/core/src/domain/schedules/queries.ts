/**
 * The SQL of schedules and their runs (docs/architecture.md, "The schema"): the row types and one
 * named function per statement, shared by the schedule rules, the bounds and the occurrence runner;
 * `mappers/schedule.ts` turns the rows into the API's shape.
 */
import type { EntityManager } from '@sandbank/db';

export type ScheduleState = 'active' | 'paused' | 'ended';

export interface ScheduleRow {
  id: string;
  user_id: string;
  account_id: string;
  amount: string | number;
  description: string;
  merchant: string | null;
  category: string | null;
  rrule: string;
  timezone: string;
  start_at: Date | string;
  status: 'pending' | 'posted';
  settle_after: string | null;
  state: ScheduleState;
  next_run_at: Date | string | null;
  next_run_n: number;
  created_at: Date | string;
  /** A standing order's payment (null: the schedule books a transaction). */
  payment: StandingOrderPayment | null;
  runs: string | number;
}

/**
 * What each occurrence of a standing order pays: to an IBAN and name, over a scheme (default: the currency's), or to
 * another account of the world (an own-account transfer, no scheme).
 */
export type StandingOrderPayment =
  | { to: { iban: string; name: string }; scheme?: 'elixir' | 'express_elixir' | 'sepa' | 'sepa_instant' | undefined }
  | { to: { accountId: string }; scheme?: undefined };

const SCHEDULE_COLUMNS = `s.id, s.user_id, s.account_id, s.amount, s.description, s.merchant, s.category, s.rrule, s.timezone,
  s.start_at, s.status, s.settle_after, s.state, s.next_run_at, s.next_run_n, s.created_at, s.payment,
  (select count(*) from schedule_runs r where r.schedule_id = s.id) as runs`;

export interface ScheduleRunRow {
  n: number;
  due_at: Date | string;
  transaction_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
}

/** A new schedule's row, as `insertSchedule` has validated it (instants as ISO strings). */
export interface NewScheduleRow {
  id: string;
  userId: string;
  accountId: string;
  amount: number;
  description: string;
  merchant: string | null;
  category: string | null;
  rrule: string;
  timezone: string;
  startAt: string;
  status: 'pending' | 'posted';
  settleAfter: string | null;
  state: ScheduleState;
  nextRunAt: string | null;
  createdAt: string;
  payment: StandingOrderPayment | null;
}

/** Stores a schedule with run 1 next. */
export async function insertScheduleRow(em: EntityManager, row: NewScheduleRow): Promise<void> {
  await em.execute(
    `insert into schedules (id, user_id, account_id, amount, description, merchant, category, rrule, timezone, start_at,
                            status, settle_after, state, next_run_at, next_run_n, created_at, payment)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?, ?, ?::timestamptz, 1, ?::timestamptz, ?::jsonb)`,
    [
      row.id,
      row.userId,
      row.accountId,
      row.amount,
      row.description,
      row.merchant,
      row.category,
      row.rrule,
      row.timezone,
      row.startAt,
      row.status,
      row.settleAfter,
      row.state,
      row.nextRunAt,
      row.createdAt,
      row.payment ? JSON.stringify(row.payment) : null,
    ],
  );
}

/** The user's schedule, or undefined. */
export async function selectOwnedSchedule(
  em: EntityManager,
  userId: string,
  scheduleId: string,
): Promise<ScheduleRow | undefined> {
  const [row] = await em.execute<ScheduleRow[]>(`select ${SCHEDULE_COLUMNS} from schedules s where s.id = ? and s.user_id = ?`, [
    scheduleId,
    userId,
  ]);
  return row;
}

/** The user's schedule, its row locked (FOR UPDATE) until the transaction ends; or undefined. */
export async function lockOwnedSchedule(tx: EntityManager, userId: string, scheduleId: string): Promise<ScheduleRow | undefined> {
  const [row] = await tx.execute<ScheduleRow[]>(
    `select ${SCHEDULE_COLUMNS} from schedules s where s.id = ? and s.user_id = ? for update`,
    [scheduleId, userId],
  );
  return row;
}

/** The schedule locked (FOR UPDATE) if it is still active with its next run at `dueAt`; else undefined. */
export async function lockScheduleDueAt(tx: EntityManager, scheduleId: string, dueAt: Date): Promise<ScheduleRow | undefined> {
  const [row] = await tx.execute<ScheduleRow[]>(
    `select ${SCHEDULE_COLUMNS} from schedules s where s.id = ? and s.state = 'active' and s.next_run_at = ?::timestamptz for update`,
    [scheduleId, dueAt.toISOString()],
  );
  return row;
}

/** An account's schedules, oldest first. */
export function selectAccountSchedules(em: EntityManager, userId: string, accountId: string): Promise<ScheduleRow[]> {
  return em.execute<ScheduleRow[]>(
    `select ${SCHEDULE_COLUMNS} from schedules s where s.account_id = ? and s.user_id = ? order by s.created_at, s.id`,
    [accountId, userId],
  );
}

/** Up to `limit` runs of a schedule before run `beforeN`, newest first. */
export function selectScheduleRuns(
  em: EntityManager,
  { scheduleId, beforeN, limit }: { scheduleId: string; beforeN: number; limit: number },
): Promise<ScheduleRunRow[]> {
  return em.execute<ScheduleRunRow[]>(
    `select n, due_at, transaction_id, failure_code, failure_message from schedule_runs
      where schedule_id = ? and n < ? order by n desc limit ?`,
    [scheduleId, beforeN, limit],
  );
}

/** How many schedules of the account are not ended (active or paused). */
export async function countLiveSchedulesOfAccount(tx: EntityManager, accountId: string): Promise<number> {
  const [row] = await tx.execute<{ n: string }[]>(
    `select count(*) as n from schedules where account_id = ? and state <> 'ended'`,
    [accountId],
  );
  return Number(row?.n ?? 0);
}

/** Pauses the schedule if it is active. */
export async function pauseActiveSchedule(em: EntityManager, scheduleId: string): Promise<void> {
  await em.execute(`update schedules set state = 'paused', updated_at = now() where id = ? and state = 'active'`, [scheduleId]);
}

/** Moves the schedule to its next run (none: ended). */
export async function setScheduleNextRun(
  em: EntityManager,
  { scheduleId, nextRunAt, nextRunN }: { scheduleId: string; nextRunAt: Date | null; nextRunN: number },
): Promise<void> {
  await em.execute(
    `update schedules set state = ?, next_run_at = ?::timestamptz, next_run_n = ?, updated_at = now() where id = ?`,
    [nextRunAt ? 'active' : 'ended', nextRunAt ? nextRunAt.toISOString() : null, nextRunN, scheduleId],
  );
}

export async function deleteOwnedSchedule(em: EntityManager, userId: string, scheduleId: string): Promise<void> {
  await em.execute('delete from schedules where id = ? and user_id = ?', [scheduleId, userId]);
}

/** Records run `n` (its transaction or its failure), once: a second record of the same run is ignored. */
export async function insertScheduleRun(
  em: EntityManager,
  run: {
    scheduleId: string;
    n: number;
    dueAt: Date;
    transactionId: string | null;
    failureCode: string | null;
    failureMessage: string | null;
  },
): Promise<void> {
  const dueAt = run.dueAt.toISOString();
  await em.execute(
    `insert into schedule_runs (schedule_id, n, due_at, transaction_id, failure_code, failure_message, created_at)
     values (?, ?, ?::timestamptz, ?, ?, ?, ?::timestamptz) on conflict (schedule_id, n) do nothing`,
    [run.scheduleId, run.n, dueAt, run.transactionId, run.failureCode, run.failureMessage, dueAt],
  );
}

/** The status of the user's account, or undefined when the world has no such account. */
export async function selectAccountStatus(
  em: EntityManager,
  userId: string,
  accountId: string,
): Promise<'open' | 'closed' | undefined> {
  const [row] = await em.execute<{ status: 'open' | 'closed' }[]>('select status from accounts where id = ? and user_id = ?', [
    accountId,
    userId,
  ]);
  return row?.status;
}
