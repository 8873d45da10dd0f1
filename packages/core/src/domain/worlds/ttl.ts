/** A child world's time to live: an ISO 8601 duration of at least PT1S and at most P7D (default PT1H), on wall time. */
import { Duration } from 'luxon';
import { z } from 'zod';

export const DEFAULT_TTL = 'PT1H';
const MIN_TTL_MS = 1_000;
const MAX_TTL_MS = 7 * 24 * 3_600_000;

/** The duration in milliseconds, or why it is refused. Years and months are refused: their length depends on the calendar. */
export function ttlMilliseconds(value: string): number | string {
  if (value.startsWith('-')) return 'Expected a positive ISO 8601 duration such as PT10M, PT1H or P1D';
  const duration = Duration.fromISO(value);
  if (!duration.isValid) return 'Expected an ISO 8601 duration such as PT10M, PT1H or P1D';
  const parts = duration.toObject();
  if (Object.values(parts).some((part) => !Number.isFinite(part) || (part ?? 0) < 0)) return 'No part may be negative';
  if ((parts.years ?? 0) > 0 || (parts.months ?? 0) > 0) return 'Use weeks, days, hours, minutes or seconds (at most P7D)';
  const ms = duration.toMillis();
  if (ms < MIN_TTL_MS) return 'At least PT1S';
  if (ms > MAX_TTL_MS) return 'At most P7D';
  return ms;
}

export const TtlSchema = z
  .string()
  .max(40)
  .superRefine((value, ctx) => {
    const ms = ttlMilliseconds(value);
    if (typeof ms === 'string') ctx.addIssue({ code: 'custom', message: ms });
  })
  .meta({
    description: 'How long the world lives: an ISO 8601 duration from PT1S to P7D (default PT1H), on wall time',
    example: 'PT30M',
  });
