import { router } from '../../trpc.ts';
import { createScheduleProcedure } from './create-schedule.ts';
import { deleteScheduleProcedure } from './delete-schedule.ts';
import { listAccountSchedulesProcedure } from './list-account-schedules.ts';
import { listScheduleRunsProcedure } from './list-schedule-runs.ts';
import { pauseScheduleProcedure } from './pause-schedule.ts';
import { resumeScheduleProcedure } from './resume-schedule.ts';

export const schedulesRouter = router({
  createSchedule: createScheduleProcedure,
  deleteSchedule: deleteScheduleProcedure,
  listAccountSchedules: listAccountSchedulesProcedure,
  listScheduleRuns: listScheduleRunsProcedure,
  pauseSchedule: pauseScheduleProcedure,
  resumeSchedule: resumeScheduleProcedure,
});
