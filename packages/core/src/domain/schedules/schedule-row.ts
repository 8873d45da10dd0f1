/** A schedule as read from the database, with its run count: shared by the schedule rules and the occurrence runner. */
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
  runs: string | number;
}

export const SCHEDULE_COLUMNS = `s.id, s.user_id, s.account_id, s.amount, s.description, s.merchant, s.category, s.rrule, s.timezone,
  s.start_at, s.status, s.settle_after, s.state, s.next_run_at, s.next_run_n, s.created_at,
  (select count(*) from schedule_runs r where r.schedule_id = s.id) as runs`;
