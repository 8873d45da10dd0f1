/**
 * A statement's period (docs/faces/statements.md): whole local days in Europe/Warsaw, `from` and `to` inclusive,
 * at most 366 days. The checks a caller's own input fails are here; the world's today (which the
 * defaults and the clamp need) is applied in SQL by `readStatement`.
 */
import { AppError } from '../../errors.ts';
import { CalendarDaySchema, daysBetween } from '../../lib/calendar-days.ts';

export const MAX_STATEMENT_DAYS = 366;

/** A statement's `from` or `to`: a calendar day. */
export const StatementDaySchema = CalendarDaySchema;

/** 400 when `from` is after `to`, 422 PERIOD_TOO_LONG over 366 days (both given). */
export function checkPeriod(from: string | undefined, to: string | undefined): void {
  if (!from || !to) return;
  if (from > to) {
    throw new AppError('VALIDATION_ERROR', '`from` must not be after `to`', {
      details: [{ path: 'from', message: 'Must not be after `to`' }],
    });
  }
  if (daysBetween(from, to) > MAX_STATEMENT_DAYS) throw periodTooLong();
}

export const periodTooLong = () =>
  new AppError('PERIOD_TOO_LONG', `A statement covers at most ${MAX_STATEMENT_DAYS} days`, {
    details: [{ path: 'from', message: `At most ${MAX_STATEMENT_DAYS} days before \`to\`` }],
  });
