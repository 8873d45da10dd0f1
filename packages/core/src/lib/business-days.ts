/**
 * Business days of the two clearing calendars a payment can run on, as `YYYY-MM-DD` days:
 *
 * - `PL`: Polish banking days (Elixir, Express Elixir): weekdays less the Polish public holidays, read
 *   from `date-holidays` (its PL data follows the statutes, e.g. 24 December since 2025).
 * - `TARGET`: the TARGET2 closing days the ECB publishes (weekends, 1 January, Good Friday, Easter
 *   Monday, 1 May, 25 and 26 December), written as `date-holidays` rules, so Easter is the library's
 *   computation, not a table of dates.
 *
 * Days are zone-less; the caller decides which zone a moment's day is read in (Europe/Warsaw for both).
 */
import Holidays from 'date-holidays';

export type BusinessCalendar = 'PL' | 'TARGET';

const DAY_MS = 86_400_000;
/** Walks never run further than this: no calendar here has more closing days in a row. */
const MAX_WALK_DAYS = 31;

function targetCalendar(): Holidays {
  const holidays = new Holidays();
  for (const rule of ['01-01', 'easter -2', 'easter 1', '05-01', '12-25', '12-26']) {
    holidays.setHoliday(rule, { name: `TARGET closing day (${rule})`, type: 'public' });
  }
  return holidays;
}

const CALENDARS: Record<BusinessCalendar, Holidays> = {
  PL: new Holidays('PL', { types: ['public'] }),
  TARGET: targetCalendar(),
};

function dayTime(day: string): number {
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time)) throw new Error(`Not a calendar day: ${day}`);
  return time;
}

const shiftDay = (day: string, days: number) => new Date(dayTime(day) + days * DAY_MS).toISOString().slice(0, 10);

/** The public holidays of a year on a calendar, by day, with their names. */
export function holidaysOf(calendar: BusinessCalendar, year: number): { day: string; name: string }[] {
  return CALENDARS[calendar]
    .getHolidays(year)
    .filter((holiday) => holiday.type === 'public')
    .map((holiday) => ({ day: holiday.date.slice(0, 10), name: holiday.name }));
}

/**
 * Answers already computed, by calendar and day. date-holidays evaluates its rules on every call (about
 * 1.5 ms for Poland, 0.1 ms for TARGET on this machine), and a clearing session or a card payment asks about
 * the same few days again and again; the answer for a day never changes. Bounded: emptied past its size.
 */
const known = new Map<string, boolean>();
const KNOWN_MAX = 20_000;

/** Whether a day is a business day: a weekday that is not one of the calendar's holidays. */
export function isBusinessDay(calendar: BusinessCalendar, day: string): boolean {
  const key = `${calendar}:${day}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const weekday = new Date(dayTime(day)).getUTCDay();
  // Noon UTC is the same day in every zone the library might apply, so the day asked is the day checked.
  const found = weekday === 0 || weekday === 6 ? [] : CALENDARS[calendar].isHoliday(new Date(`${day}T12:00:00Z`));
  const open = weekday !== 0 && weekday !== 6 && (found === false || !found.some((holiday) => holiday.type === 'public'));
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(key, open);
  return open;
}

function walk(calendar: BusinessCalendar, day: string, step: 1 | -1): string {
  let current = day;
  for (let i = 0; i <= MAX_WALK_DAYS; i += 1) {
    if (isBusinessDay(calendar, current)) return current;
    current = shiftDay(current, step);
  }
  throw new Error(`No ${calendar} business day within ${MAX_WALK_DAYS} days of ${day}`);
}

/** The day itself if it is a business day, else the next one. */
export const businessDayOnOrAfter = (calendar: BusinessCalendar, day: string) => walk(calendar, day, 1);

/** The day itself if it is a business day, else the last one before it (a weekend keeps Friday's rate). */
export const businessDayOnOrBefore = (calendar: BusinessCalendar, day: string) => walk(calendar, day, -1);

/** The first business day strictly after `day`. */
export const nextBusinessDay = (calendar: BusinessCalendar, day: string) => walk(calendar, shiftDay(day, 1), 1);
