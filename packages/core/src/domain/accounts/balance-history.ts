/**
 * An account's booked balance at the end of each day, for a balance-over-time chart
 * (docs/concepts/lifecycle.md, "Balance history"). One SQL statement, so one snapshot: the days
 * come from `generate_series`, each day's posted amounts are summed, and a window sum over the
 * days adds them to the opening balance.
 *
 * The semantics are the statement's (domain/statements/statement.ts): days are local days in
 * Europe/Warsaw on the world's clock, and a transaction counts on the day it posted (`posted_at`),
 * so a pending one counts from the day it posts, and a voided one never. Pending holds are not in the
 * points: the series is the booked `balance`, not `availableBalance` (which only exists now; the
 * answer carries today's holds beside it). Today's point is the balance now: a posting dated up to
 * the clock-skew minute ahead (past midnight) is counted today, so the last point of a range that ends
 * today equals the account's `balance`, always — checked before answering.
 */
import type { EntityManager } from '@sandbank/db';
import { type BalanceHistory, DEFAULT_BALANCE_HISTORY_DAYS, MAX_BALANCE_HISTORY_DAYS } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { daysBetween } from '../../lib/calendar-days.ts';
import { selectBalanceHistoryBounds, selectBalancePoints } from './queries.ts';

const TIME_ZONE = 'Europe/Warsaw';

export interface BalanceHistoryParams {
  userId: string;
  accountId: string;
  /** `YYYY-MM-DD`; default and upper bound: the world's today. */
  to?: string | undefined;
  /** `YYYY-MM-DD`; default: `days` back from `to`, `to` included. */
  from?: string | undefined;
  /** Instead of `from`: the range's length in days, ending at `to` (default 90). */
  days?: number | undefined;
}

const dayText = (value: string | Date) => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

export async function getBalanceHistory(em: EntityManager, params: BalanceHistoryParams): Promise<BalanceHistory> {
  const { userId, accountId, from, to, days } = params;
  if (from !== undefined && days !== undefined) {
    throw new AppError('VALIDATION_ERROR', 'Give `from` or `days`, not both', {
      details: [{ path: 'days', message: 'Not with `from`' }],
    });
  }
  if (from && to && from > to) throw fromAfter('`to`');
  if (from && to && daysBetween(from, to) > MAX_BALANCE_HISTORY_DAYS) throw rangeTooLong();
  const bounds = await selectBalanceHistoryBounds(em, {
    accountId,
    userId,
    from: from ?? null,
    to: to ?? null,
    span: days ?? DEFAULT_BALANCE_HISTORY_DAYS,
  });
  if (!bounds) throw notFound('Account');
  const [today, toDay, fromDay] = [dayText(bounds.today), dayText(bounds.to_day), dayText(bounds.from_day)];
  if (fromDay > toDay) throw fromAfter(`${toDay}, today in the account’s world`);
  if (daysBetween(fromDay, toDay) > MAX_BALANCE_HISTORY_DAYS) throw rangeTooLong();
  const endsToday = toDay === today;
  const rows = await selectBalancePoints(em, { accountId, from: fromDay, to: toDay, endsToday });
  if (rows.length === 0) throw notFound('Account'); // removed in between (a reset)
  const points = rows.map((row) => ({ date: row.day, balance: Number(row.balance) }));
  const balance = Number(rows[0]?.account_balance);
  const heldAmount = Number(rows[0]?.held_amount);
  // The ledger's invariant (balance = Σ posted) makes these equal; a difference is a bug, never an answer.
  if (endsToday && points.at(-1)?.balance !== balance) {
    throw new Error(`Balance history does not reconcile: today's point is ${points.at(-1)?.balance}, the balance ${balance}`);
  }
  return {
    accountId: bounds.id,
    currency: bounds.currency as BalanceHistory['currency'],
    timeZone: TIME_ZONE,
    from: fromDay,
    to: toDay,
    points,
    balance,
    heldAmount,
    availableBalance: balance - heldAmount,
  };
}

const fromAfter = (what: string) =>
  new AppError('VALIDATION_ERROR', '`from` is after the end of the range', {
    details: [{ path: 'from', message: `Must not be after ${what}` }],
  });

const rangeTooLong = () =>
  new AppError('PERIOD_TOO_LONG', `A balance history covers at most ${MAX_BALANCE_HISTORY_DAYS} days`, {
    details: [{ path: 'from', message: `At most ${MAX_BALANCE_HISTORY_DAYS} days before \`to\`` }],
  });
