/**
 * ISO 8601 durations (`P2D`, `PT36H`, `P1M`) added to instants, calendar-correct in UTC (a month
 * after 31 January is the last day of February). Luxon parses and adds them: a well-kept library
 * instead of a hand-written duration grammar.
 */
import { DateTime, Duration } from 'luxon';
import { z } from 'zod';

function parseIsoDuration(value: string): Duration | null {
  if (value.startsWith('-')) return null;
  const duration = Duration.fromISO(value);
  return duration.isValid ? duration : null;
}

export function addIsoDuration(at: Date, value: string): Date {
  const duration = parseIsoDuration(value);
  if (!duration) throw new Error(`not an ISO 8601 duration: ${value}`);
  return DateTime.fromJSDate(at, { zone: 'utc' }).plus(duration).toJSDate();
}

export function subtractIsoDuration(at: Date, value: string): Date {
  const duration = parseIsoDuration(value);
  if (!duration) throw new Error(`not an ISO 8601 duration: ${value}`);
  return DateTime.fromJSDate(at, { zone: 'utc' }).minus(duration).toJSDate();
}

/** A positive ISO 8601 duration such as `P2D` or `PT36H`, as an input field. */
export const IsoDurationSchema = z
  .string()
  .max(40)
  .refine((value) => {
    const duration = parseIsoDuration(value);
    return duration !== null && duration.toMillis() > 0;
  }, 'Expected a positive ISO 8601 duration such as P2D or PT36H')
  .meta({ description: 'A positive ISO 8601 duration, e.g. P2D or PT36H', example: 'P2D' });
