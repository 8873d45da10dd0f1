/**
 * The clearing calendar (docs/concepts/payments.md#the-calendar), on the world's clock. Pure: it maps
 * instants to sessions and never reads a clock.
 *
 * - Elixir (KIR's PLN clearing): three sessions on each Polish business day (weekdays less the
 *   Polish public holidays, lib/business-days.ts), at 09:30, 13:30 and 16:00 Europe/Warsaw, the
 *   hours KIR publishes for its outgoing sessions. A payment joins the first session whose cut-off
 *   (30 minutes before it, Sandbank's bank cut-off) it meets; it is in the session (ACSP) at the
 *   session's time and settled (ACSC) an hour later, when KIR's results reach the banks.
 * - SEPA (SCT over the TARGET calendar): one cut-off per TARGET business day at 15:00
 *   Europe/Warsaw (CET, TARGET's own zone); the payment goes into clearing (ACSP) then and settles
 *   (ACSC) at 09:00 on the next TARGET business day.
 * Instant schemes (Express Elixir, SCT Inst) have no sessions: they settle when accepted.
 */
import { DateTime } from 'luxon';
import { type BusinessCalendar, isBusinessDay } from '../../lib/business-days.ts';

const CALENDAR_ZONE = 'Europe/Warsaw';
export type SessionScheme = 'elixir' | 'sepa';

export interface ClearingSession {
  scheme: SessionScheme;
  /** The business day (YYYY-MM-DD, Warsaw) the session belongs to. */
  day: string;
  /** The last instant a payment can join it. */
  cutoffAt: Date;
  /** When its payments go into clearing (ACSP). */
  sessionAt: Date;
  /** When they settle (ACSC). */
  settlesAt: Date;
}

const ELIXIR_SESSIONS = [
  { hour: 9, minute: 30 },
  { hour: 13, minute: 30 },
  { hour: 16, minute: 0 },
] as const;
const ELIXIR_CUTOFF_MINUTES = 30;
const ELIXIR_RESULTS_MINUTES = 60;
const SEPA_CUTOFF = { hour: 15, minute: 0 } as const;
const SEPA_SETTLEMENT = { hour: 9, minute: 0 } as const;
/** No calendar has a longer run of closing days; a walk that finds no session in this many days is a bug. */
const MAX_DAYS = 40;

const CALENDAR: Record<SessionScheme, BusinessCalendar> = { elixir: 'PL', sepa: 'TARGET' };

const at = (day: DateTime, time: { hour: number; minute: number }) =>
  day.set({ hour: time.hour, minute: time.minute, second: 0, millisecond: 0 }).toJSDate();

function nextBusinessDayAfter(calendar: BusinessCalendar, day: DateTime): DateTime {
  let next = day.plus({ days: 1 });
  for (let i = 0; i < MAX_DAYS && !isBusinessDay(calendar, next.toISODate() as string); i += 1) next = next.plus({ days: 1 });
  return next;
}

/** The sessions of one Warsaw day (none on a day that is not a business day of the scheme's calendar). */
export function sessionsOfDay(scheme: SessionScheme, dayIso: string): ClearingSession[] {
  if (!isBusinessDay(CALENDAR[scheme], dayIso)) return [];
  const day = DateTime.fromISO(dayIso, { zone: CALENDAR_ZONE }).startOf('day');
  if (scheme === 'elixir') {
    return ELIXIR_SESSIONS.map((time) => {
      const sessionAt = at(day, time);
      return {
        scheme,
        day: dayIso,
        cutoffAt: new Date(sessionAt.getTime() - ELIXIR_CUTOFF_MINUTES * 60_000),
        sessionAt,
        settlesAt: new Date(sessionAt.getTime() + ELIXIR_RESULTS_MINUTES * 60_000),
      };
    });
  }
  const cutoffAt = at(day, SEPA_CUTOFF);
  return [
    { scheme, day: dayIso, cutoffAt, sessionAt: cutoffAt, settlesAt: at(nextBusinessDayAfter('TARGET', day), SEPA_SETTLEMENT) },
  ];
}

/** The Warsaw day of an instant. */
export const warsawDay = (instant: Date) => DateTime.fromJSDate(instant, { zone: CALENDAR_ZONE }).toISODate() as string;

const dayAfter = (dayIso: string) => DateTime.fromISO(dayIso, { zone: 'UTC' }).plus({ days: 1 }).toISODate() as string;

/**
 * The session a payment accepted at `acceptedAt` joins: the first whose cut-off it meets (at the
 * cut-off itself still counts), on `notBefore` (a requested execution day) or later.
 */
export function sessionFor(scheme: SessionScheme, acceptedAt: Date, notBefore?: string | null): ClearingSession {
  const today = warsawDay(acceptedAt);
  let day = notBefore && notBefore > today ? notBefore : today;
  for (let i = 0; i <= MAX_DAYS; i += 1) {
    const found = sessionsOfDay(scheme, day).find((session) => session.cutoffAt.getTime() >= acceptedAt.getTime());
    if (found) return found;
    day = dayAfter(day);
  }
  throw new Error(`No ${scheme} session within ${MAX_DAYS} days of ${acceptedAt.toISOString()}`);
}

/** Every session whose time (ACSP) falls on a Warsaw day from `from` to `to`, inclusive, in order. */
export function sessionsBetween(scheme: SessionScheme, from: string, to: string): ClearingSession[] {
  const sessions: ClearingSession[] = [];
  for (let day = from; day <= to; day = dayAfter(day)) sessions.push(...sessionsOfDay(scheme, day));
  return sessions;
}

/** The session that goes into clearing exactly at `instant`, if any (a payment's due time while ACTC). */
export function sessionAt(scheme: SessionScheme, instant: Date): ClearingSession | undefined {
  return sessionsOfDay(scheme, warsawDay(instant)).find((session) => session.sessionAt.getTime() === instant.getTime());
}
