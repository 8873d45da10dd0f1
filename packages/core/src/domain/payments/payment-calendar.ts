/** `GET /v1/payments/calendar`: the clearing sessions between two Warsaw days, the default range counted from the world's today. */
import type { EntityManager } from '@sandbank/db';
import { DateTime } from 'luxon';
import { AppError } from '../../errors.ts';
import { userNow } from '../clock/clock.ts';
import { type SessionScheme, sessionsBetween, warsawDay } from './calendar.ts';

const MAX_CALENDAR_DAYS = 92;
const DEFAULT_DAYS = 14;

const plusDays = (day: string, days: number) => DateTime.fromISO(day, { zone: 'UTC' }).plus({ days }).toISODate() as string;

export interface CalendarSession {
  scheme: SessionScheme;
  day: string;
  cutoffAt: string;
  sessionAt: string;
  settlesAt: string;
}

export async function paymentCalendar(
  em: EntityManager,
  {
    userId,
    from,
    to,
    scheme,
  }: { userId: string; from?: string | undefined; to?: string | undefined; scheme?: SessionScheme | undefined },
): Promise<CalendarSession[]> {
  const start = from ?? warsawDay(await userNow(em, userId));
  const end = to ?? plusDays(start, DEFAULT_DAYS - 1);
  if (end < start) {
    throw new AppError('VALIDATION_ERROR', 'Invalid to: Must not be before from', {
      details: [{ path: 'to', message: 'Must not be before from' }],
    });
  }
  if (end > plusDays(start, MAX_CALENDAR_DAYS - 1)) {
    throw new AppError('PERIOD_TOO_LONG', `At most ${MAX_CALENDAR_DAYS} days of sessions at once`, {
      details: [{ path: 'to', message: `At most ${MAX_CALENDAR_DAYS} days after from` }],
    });
  }
  const schemes: SessionScheme[] = scheme ? [scheme] : ['elixir', 'sepa'];
  return schemes
    .flatMap((one) => sessionsBetween(one, start, end))
    .sort((a, b) => a.sessionAt.getTime() - b.sessionAt.getTime() || a.scheme.localeCompare(b.scheme))
    .map((session) => ({
      scheme: session.scheme,
      day: session.day,
      cutoffAt: session.cutoffAt.toISOString(),
      sessionAt: session.sessionAt.toISOString(),
      settlesAt: session.settlesAt.toISOString(),
    }));
}
