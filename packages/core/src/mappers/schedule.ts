/** Schedules and their runs, from the rows of domain/schedules, in the API's shapes (packages/schemas). */
import type { Category, Schedule, ScheduleRun } from '@sandbank/schemas';
import type { ScheduleRow, ScheduleRunRow } from '../domain/schedules/queries.ts';
import { isoTimestamp } from '../lib/timestamps.ts';

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    accountId: row.account_id,
    amount: Number(row.amount),
    description: row.description,
    merchant: row.merchant,
    category: row.category as Category | null,
    rrule: row.rrule,
    timezone: row.timezone,
    startAt: isoTimestamp(row.start_at),
    status: row.status,
    settleAfter: row.settle_after,
    nextRunAt: row.next_run_at === null ? null : isoTimestamp(row.next_run_at),
    state: row.state,
    runs: Number(row.runs),
    createdAt: isoTimestamp(row.created_at),
    payment: row.payment ? { to: row.payment.to, scheme: row.payment.scheme ?? null } : null,
  };
}

export function toScheduleRun(row: ScheduleRunRow): ScheduleRun {
  return {
    n: Number(row.n),
    dueAt: isoTimestamp(row.due_at),
    transactionId: row.transaction_id,
    failure: row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
  };
}
