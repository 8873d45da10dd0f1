/**
 * ISO 8601 durations (`P2D`, `PT36H`, `P1M`) added to instants, calendar-correct in UTC (a month
 * after 31 January is the last day of February). Luxon parses and adds them: a well-kept library
 * instead of a hand-written duration grammar.
 *
 * Why bounds: luxon parses `P300000Y` happily, but adding it to a date gives an Invalid DateTime (or,
 * for a few hundred thousand seconds more, a JS Date past ±8.64e15 ms), whose comparisons are all false
 * and whose `toISOString()` throws — a 500 wherever such an instant was used. So a duration field takes
 * only what adds up to a valid date: well-formed, no negative part (`P1M-29D` would move backwards), not
 * zero, and at most MAX_DURATION, measured from a fixed instant so that the bound does not depend on
 * today's calendar. Every instant computed from one (a settlement, an expiry, an `at` relative to now)
 * then lies within a century of a date the world holds. Only the clock's `by` takes any length
 * (UnboundedIsoDurationSchema): the advance has its own, smaller bound with its own error
 * (422 ADVANCE_TOO_LARGE), and asks tryAddIsoDuration.
 */
import { DateTime, Duration } from 'luxon';
import { z } from 'zod';
import { isHoldable } from './timestamps.ts';

/** The longest duration a field accepts. */
export const MAX_DURATION = 'P100Y';

const REFERENCE = DateTime.fromISO('2000-01-01T00:00:00Z', { zone: 'utc' });
const REFERENCE_LIMIT = REFERENCE.plus(Duration.fromISO(MAX_DURATION)).toMillis();

/** A well-formed duration with no negative part (a leading `-` negates it all: refused too). */
function parseIsoDuration(value: string): Duration | null {
  if (value.startsWith('-')) return null;
  const duration = Duration.fromISO(value);
  if (!duration.isValid) return null;
  const parts = Object.values(duration.toObject());
  return parts.every((part) => Number.isFinite(part) && part >= 0) ? duration : null;
}

/**
 * Why `value` is not an acceptable duration, or null when it is: malformed or negative, zero
 * (unless `zero`), or longer than MAX_DURATION (unless `unbounded`).
 */
export function isoDurationProblem(value: string, options: { zero?: boolean; unbounded?: boolean } = {}): string | null {
  const duration = parseIsoDuration(value);
  if (!duration) return 'Expected an ISO 8601 duration with no negative part, such as P2D, PT36H or P1Y2M3D';
  if (!options.zero && duration.toMillis() <= 0) return 'Expected a positive duration';
  if (options.unbounded) return null;
  const end = REFERENCE.plus(duration);
  return end.isValid && end.toMillis() <= REFERENCE_LIMIT ? null : `At most ${MAX_DURATION}`;
}

function shift(at: Date, value: string, sign: 1 | -1): Date | null {
  const duration = parseIsoDuration(value);
  if (!duration) return null;
  const start = DateTime.fromJSDate(at, { zone: 'utc' });
  const result = (sign === 1 ? start.plus(duration) : start.minus(duration)).toJSDate();
  return isHoldable(result) ? result : null;
}

/** `at` + `value`, or null when the sum is no holdable instant (lib/timestamps.ts: a duration too long for the calendar). */
export function tryAddIsoDuration(at: Date, value: string): Date | null {
  return shift(at, value, 1);
}

export function addIsoDuration(at: Date, value: string): Date {
  const result = shift(at, value, 1);
  if (!result) throw new RangeError(`cannot add the duration ${value} to ${at.toISOString()}`);
  return result;
}

/** `at` − `value`, or null when the difference is no valid instant. */
export function trySubtractIsoDuration(at: Date, value: string): Date | null {
  return shift(at, value, -1);
}

export function subtractIsoDuration(at: Date, value: string): Date {
  const result = shift(at, value, -1);
  if (!result) throw new RangeError(`cannot subtract the duration ${value} from ${at.toISOString()}`);
  return result;
}

const durationSchema = (options: { unbounded?: boolean }) =>
  z
    .string()
    .max(40)
    .superRefine((value, ctx) => {
      const problem = isoDurationProblem(value, options);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** A positive ISO 8601 duration of at most MAX_DURATION, such as `P2D` or `PT36H`, as an input field. */
export const IsoDurationSchema = durationSchema({}).meta({
  description: `A positive ISO 8601 duration of at most ${MAX_DURATION}, e.g. P2D or PT36H`,
  example: 'P2D',
});

/** Any positive ISO 8601 duration, for a field whose operation bounds it with its own error (the clock's `by`). */
export const UnboundedIsoDurationSchema = durationSchema({ unbounded: true }).meta({
  description: 'A positive ISO 8601 duration, e.g. P1M or PT36H',
  example: 'P1M',
});
