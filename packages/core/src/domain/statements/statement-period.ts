/**
 * A statement's period (docs/faces/statements.md): whole local days in Europe/Warsaw, `from` and `to` inclusive,
 * at most 366 days. The checks a caller's own input fails are here; the world's today (which the
 * defaults and the clamp need) is applied in SQL by `readStatement`.
 */
import { z } from 'zod';
import { AppError } from '../../errors.ts';

export const MAX_STATEMENT_DAYS = 366;
const DAY_MS = 86_400_000;

/** A calendar day, `YYYY-MM-DD`, that exists. */
export const StatementDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD')
  // zod runs this after a failed regex too: an unparsable text must fail here, not throw (toISOString of an Invalid Date).
  .refine((value) => {
    const time = Date.parse(`${value}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
  }, 'Not a calendar day')
  .refine((value) => value >= '1970-01-01' && value <= '9999-12-30', 'Out of range');

/** The days between two `YYYY-MM-DD` dates, both counted. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

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
