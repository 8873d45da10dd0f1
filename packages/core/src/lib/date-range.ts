/**
 * Date bounds of history queries. A `YYYY-MM-DD` bound covers its whole UTC day (inclusive);
 * a full ISO timestamp is exact (inclusive). Internally a range is `[gte, lt)` or `[gte, lte]`.
 * Bounds lie in the holdable years (lib/timestamps.ts); the end of the last day, 10000-01-01, is no
 * bound at all (nothing is stored after it), so it never reaches a statement.
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { isHoldable, parseInstant } from './timestamps.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export const DayOrInstantSchema = z
  .string()
  .refine((value) => parseBound(value) !== null, 'Expected YYYY-MM-DD or an ISO 8601 timestamp, years 0001–9999')
  .meta({ description: 'YYYY-MM-DD (a whole UTC day) or an ISO 8601 timestamp', example: '2026-11-01' });

export const DaySchema = z
  .string()
  .refine((value) => DAY.test(value) && parseBound(value) !== null, 'Expected YYYY-MM-DD, years 0001–9999')
  .meta({ description: 'YYYY-MM-DD (a whole UTC day, inclusive)', example: '2026-11-01' });

/**
 * A local day (YYYY-MM-DD in the zone a face reads it in) whose start and end are holdable in any
 * zone: 0001-01-02 to 9999-12-30. At the edges a zone's offset moves the day's start out of the
 * holdable years (0001-01-01 in Warsaw begins at 0000-12-31T22:36Z, its local mean time).
 */
export const LocalDaySchema = z
  .string()
  .refine((value) => DAY.test(value) && parseBound(value) !== null, 'Expected YYYY-MM-DD, a calendar day')
  .refine((value) => value >= '0001-01-02' && value <= '9999-12-30', 'Must lie between 0001-01-02 and 9999-12-30')
  .meta({ description: 'YYYY-MM-DD, a local day (0001-01-02 to 9999-12-30)', example: '2026-11-01' });

interface Bound {
  start: Date;
  /**
   * The first instant after the bound: the next day for a day, the next millisecond for an instant;
   * null after the last holdable instant (no upper bound is needed there).
   */
  end: Date | null;
}

const endAfter = (ms: number) => (isHoldable(ms) ? new Date(ms) : null);

function parseBound(value: string): Bound | null {
  if (DAY.test(value)) {
    const start = new Date(`${value}T00:00:00.000Z`);
    if (!isHoldable(start) || start.toISOString().slice(0, 10) !== value) return null;
    return { start, end: endAfter(start.getTime() + DAY_MS) };
  }
  const start = parseInstant(value);
  return start && { start, end: endAfter(start.getTime() + 1) };
}

export interface DateRange {
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
}

/** Resolves `from`/`to` query strings (already validated) to a half-open range; `from > to` is 400. */
export function toDateRange(from: string | undefined, to: string | undefined): DateRange {
  const lower = from ? parseBound(from) : null;
  const upper = to ? parseBound(to) : null;
  if (lower && upper?.end && lower.start.getTime() >= upper.end.getTime()) {
    throw new AppError('VALIDATION_ERROR', '`from` must not be after `to`', {
      details: [{ path: 'from', message: 'Must not be after `to`' }],
    });
  }
  return { ...(lower ? { from: lower.start } : {}), ...(upper?.end ? { before: upper.end } : {}) };
}
