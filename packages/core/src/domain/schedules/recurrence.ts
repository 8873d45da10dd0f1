/**
 * RFC 5545 recurrences in a time zone. Two well-kept libraries, each doing what it is good at:
 * `rrule` expands the rule, `luxon` maps wall times of a zone to instants.
 *
 * `rrule` is used in "floating" time only (a local wall time written into a Date's UTC fields),
 * never with its own TZID support, whose results depend on the host's time zone. An occurrence
 * at 09:00 Europe/Warsaw is 09:00 in winter and in summer: the rule runs on wall times, and each
 * wall time becomes an instant in the zone. A wall time skipped by a DST jump (02:30 on the last
 * Sunday of March) moves forward by the gap, as luxon does; a repeated one takes the earlier instant.
 *
 * Month ends follow the RFC: `BYMONTHDAY=31` skips months without a 31st, `BYMONTHDAY=-1` is the
 * last day of every month, and 29 February exists only in leap years.
 *
 * Occurrences end with the holdable years (lib/timestamps.ts): one after 9999 is no occurrence.
 * (`rrule` itself stops at its MAXYEAR 9999 in floating time; a zone west of UTC still moves an
 * occurrence late on 31 December 9999 into the year 10000.)
 */
import { DateTime, IANAZone } from 'luxon';
import rrule from 'rrule';
import { isHoldable } from '../../lib/timestamps.ts';

const { RRule, rrulestr } = rrule;
type Rule = InstanceType<typeof RRule>;

/** A sandbox bank books at most daily; finer rules would flood a two-year advance. */
const ALLOWED_FREQUENCIES = new Set([RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY]);

export interface Recurrence {
  /** The first occurrence at or after `after` (inclusive), or null when the rule has ended. */
  next(after: Date, inclusive: boolean): Date | null;
  /** How many occurrences lie before `before` (the 1-based index of the next one, minus one). */
  countBefore(before: Date): number;
  /** How many occurrences lie at or before `through`, counting no further than `max + 1` (enough to tell "more than max"). */
  countThrough(through: Date, max: number): number;
  /** How many occurrences lie in [from, through], counting no further than `max + 1`. */
  countBetween(from: Date, through: Date, max: number): number;
}

export interface RecurrenceProblem {
  /** The input field at fault. */
  field: 'timezone' | 'rrule';
  message: string;
}

/** Why a rule is refused, or null when it is usable. */
export function recurrenceProblem(text: string, timezone: string, startAt: Date): RecurrenceProblem | null {
  if (!IANAZone.isValidZone(timezone)) return { field: 'timezone', message: `Unknown time zone ${timezone}` };
  let rule: Rule;
  try {
    rule = parseRule(text, timezone, startAt);
  } catch (error) {
    return { field: 'rrule', message: `Not an RFC 5545 recurrence: ${(error as Error).message}` };
  }
  if (!ALLOWED_FREQUENCIES.has(rule.options.freq))
    return { field: 'rrule', message: 'FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY' };
  const first = rule.after(rule.options.dtstart, true);
  if (!first || !isHoldable(fromFloating(first, timezone))) {
    return { field: 'rrule', message: 'The rule never occurs (before the year 10000)' };
  }
  return null;
}

export function recurrence(text: string, timezone: string, startAt: Date): Recurrence {
  const rule = parseRule(text, timezone, startAt);
  return {
    next(after, inclusive) {
      const found = rule.after(toFloating(after, timezone), inclusive);
      const instant = found && fromFloating(found, timezone);
      return instant && isHoldable(instant) ? instant : null;
    },
    countBefore(before) {
      let count = 0;
      rule.all((occurrence) => {
        if (fromFloating(occurrence, timezone) >= before) return false;
        count += 1;
        return true;
      });
      return count;
    },
    countThrough(through, max) {
      let count = 0;
      rule.all((occurrence) => {
        if (fromFloating(occurrence, timezone) > through) return false;
        count += 1;
        return count <= max;
      });
      return count;
    },
    countBetween(from, through, max) {
      // Compared in floating time: the bounds are converted once, not every occurrence (luxon's
      // conversion is what costs here; it runs on every advance).
      let count = 0;
      rule.between(toFloating(from, timezone), toFloating(through, timezone), true, () => {
        count += 1;
        return count <= max;
      });
      return count;
    },
  };
}

/** `FREQ=…;…`, optionally prefixed `RRULE:`; DTSTART and TZID come from `startAt` and `timezone`. */
function parseRule(text: string, timezone: string, startAt: Date): Rule {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (/[\r\n]/.test(body) || /(^|;)\s*(DTSTART|TZID)\s*=/i.test(body)) {
    throw new Error('give the start as startAt and the zone as timezone, not inside the rule');
  }
  const parsed = rrulestr(body, { forceset: false }) as Rule;
  const options = { ...parsed.origOptions, dtstart: toFloating(startAt, timezone) };
  // UNTIL is an instant (UTC); in floating time it becomes the zone's wall time at that instant.
  if (parsed.origOptions.until) options.until = toFloating(parsed.origOptions.until, timezone);
  return new RRule(options);
}

/** The zone's wall time at `instant`, written into a Date's UTC fields (whole seconds). */
function toFloating(instant: Date, timezone: string): Date {
  const local = DateTime.fromJSDate(instant, { zone: timezone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

function fromFloating(floating: Date, timezone: string): Date {
  return DateTime.fromObject(
    {
      year: floating.getUTCFullYear(),
      month: floating.getUTCMonth() + 1,
      day: floating.getUTCDate(),
      hour: floating.getUTCHours(),
      minute: floating.getUTCMinutes(),
      second: floating.getUTCSeconds(),
    },
    { zone: timezone },
  ).toJSDate();
}
