/** Timestamps as the API writes them, and the range of those it takes. */
import { z } from 'zod';

/**
 * ISO 8601 UTC with milliseconds, as `Date#toISOString` writes it. Timestamps arrive as PostgreSQL's
 * text; in a UTC session (every pooled session is one) that is `2026-11-21 10:15:30.123456+00`
 * (fraction optional, trailing zeros dropped), rewritten here without a Date: parsing that
 * non-ISO form was 8 % of the API's CPU on a history page (bench/README.md, "Reads"). Anything
 * else goes through a Date.
 */
export function isoTimestamp(value: Date | string): string {
  if (typeof value === 'string' && value[10] === ' ' && value.endsWith('+00')) {
    const fraction = value[19] === '.' ? value.slice(20, -3) : '';
    if (value.length === (fraction ? 23 + fraction.length : 22)) {
      return `${value.slice(0, 10)}T${value.slice(11, 19)}.${`${fraction}000`.slice(0, 3)}Z`;
    }
  }
  return new Date(value).toISOString();
}

/**
 * The instants the API takes, computes and stores: years 0001–9999 in UTC. PostgreSQL's timestamptz
 * holds far more (4713 BC to 294276 AD), but its text form, ISO 8601 as our schemas and drivers
 * write it, and `z.iso.datetime` all have four-digit years: `to=9999-12-31` once became the end of
 * the day, 10000-01-01, which the driver wrote as `+010000-…` and PostgreSQL refused (a 500). Every
 * instant that enters (history and pull bounds, sync cursors, a simulation's `date`, the clock's
 * `to`, a schedule's `startAt`, a key's `expiresAt`, a scenario's times) is checked here; every
 * instant computed from one is kept inside by the clock's own end (domain/clock/clock.ts) and the
 * bounded durations (lib/duration.ts).
 */
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether an instant (a Date or its milliseconds) lies in years 0001–9999 UTC. */
export function isHoldable(instant: Date | number): boolean {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return ms >= EARLIEST_INSTANT && ms <= LATEST_INSTANT;
}

const HOLDABLE_MESSAGE = 'Must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z';

/** An ISO 8601 timestamp with an offset (`Z` or `±hh:mm`), text in, text out, inside the holdable years. */
export const InstantTextSchema = z.iso
  .datetime({ offset: true })
  .refine((value) => isHoldable(Date.parse(value)), HOLDABLE_MESSAGE);

/** The same, parsed to a Date. */
export const InstantSchema = InstantTextSchema.transform((value) => new Date(value));

/** `value` as an instant when it is an ISO 8601 timestamp with an offset inside the holdable years, else null. */
export function parseInstant(value: string): Date | null {
  return InstantTextSchema.safeParse(value).success ? new Date(value) : null;
}
