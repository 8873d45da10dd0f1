/**
 * The checks and plan of a scenario apply (apply-scenario.ts), before anything is written: every
 * transaction of the document, generated and explicit, validated and dated; the schedules checked
 * as `POST …/schedules` checks them, and their past occurrences counted toward the bound of one
 * apply; the funds each account would end with, as the ledger checks a booking. Pure: no database.
 */
import type { Category } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';
import { addIsoDuration, subtractIsoDuration } from '../../lib/duration.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { recurrence, recurrenceProblem } from '../schedules/recurrence.ts';
import { DEFAULT_TIMEZONE, standingOrderProblem, standingOrderSchemeProblem, startAtProblem } from '../schedules/schedules.ts';
import { MAX_BALANCE } from '../simulations/simulation-statement.ts';
import { generateHistory } from './generate-history.ts';
import { SCENARIO_LIMITS, type Scenario, type ScenarioTime, scenarioTooLarge } from './scenario-document.ts';

export interface PlannedTransaction {
  id: string;
  account_id: string;
  external_txn_id: string;
  amount: number;
  date: string;
  description: string;
  status: 'posted' | 'pending';
  posted_at: string | null;
  merchant: string | null;
  category: Category | null;
  settle_at: string | null;
  expire_at: string | null;
  /** A payment in another currency (all three or none). */
  original_amount: number | null;
  original_currency: string | null;
  exchange_rate: string | null;
}

const NO_CONVERSION = { original_amount: null, original_currency: null, exchange_rate: null } as const;

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });

export function resolveTime(value: ScenarioTime, now: Date): Date {
  return value.startsWith('-') ? subtractIsoDuration(now, value.slice(1)) : new Date(value);
}

/** An explicit transaction's conversion (as an export writes it): all three fields or none, consistent with its account. */
function explicitConversion(
  item: {
    amount: number;
    originalAmount?: number | undefined;
    originalCurrency?: string | undefined;
    exchangeRate?: string | undefined;
  },
  currency: string,
  path: string,
): Pick<PlannedTransaction, 'original_amount' | 'original_currency' | 'exchange_rate'> {
  const { originalAmount, originalCurrency, exchangeRate } = item;
  if (originalAmount === undefined && originalCurrency === undefined && exchangeRate === undefined) return NO_CONVERSION;
  if (originalAmount === undefined || originalCurrency === undefined || exchangeRate === undefined) {
    throw invalid(`${path}.originalAmount`, 'originalAmount, originalCurrency and exchangeRate go together');
  }
  if (originalCurrency === currency)
    throw invalid(`${path}.originalCurrency`, `Must differ from the account's currency, ${currency}`);
  if (Math.sign(originalAmount) !== Math.sign(item.amount))
    throw invalid(`${path}.originalAmount`, 'Must have the sign of amount');
  return { original_amount: originalAmount, original_currency: originalCurrency, exchange_rate: exchangeRate };
}

/** Every transaction of the scenario, generated and explicit, validated and dated; nothing written yet. */
export function planTransactions(
  scenario: Scenario,
  now: Date,
  /** The world's rates seed: what a generated payment in another currency converts at. */
  fxSeed?: number,
): (Omit<PlannedTransaction, 'account_id'> & { accountIndex: number })[] {
  const planned: (Omit<PlannedTransaction, 'account_id'> & { accountIndex: number })[] = [];
  for (const [accountIndex, account] of scenario.accounts.entries()) {
    const path = `scenario.accounts.${accountIndex}`;
    const generated = account.history
      ? generateHistory({
          seed: scenario.seed,
          accountKey: account.key,
          profile: account.history.profile,
          months: account.history.months,
          openingBalance: account.openingBalance ?? 0,
          now,
          currency: account.currency,
          fxSeed,
        })
      : [];
    if (!account.history && (account.openingBalance ?? 0) > 0) {
      generated.push({
        externalTxnId: `scn_${account.key}_0`,
        date: now,
        amount: account.openingBalance ?? 0,
        description: 'Saldo otwarcia',
        merchant: null,
        category: 'transfer',
        status: 'posted',
        settleAfter: null,
      });
    }
    for (const item of generated) {
      planned.push({
        accountIndex,
        id: uuidv7(),
        external_txn_id: item.externalTxnId,
        amount: item.amount,
        date: item.date.toISOString(),
        description: item.description,
        status: item.status,
        posted_at: item.status === 'posted' ? item.date.toISOString() : null,
        merchant: item.merchant,
        category: item.category,
        settle_at: item.settleAfter ? addIsoDuration(item.date, item.settleAfter).toISOString() : null,
        expire_at: null,
        ...(item.conversion
          ? {
              original_amount: item.conversion.originalAmount,
              original_currency: item.conversion.originalCurrency,
              exchange_rate: item.conversion.exchangeRate,
            }
          : NO_CONVERSION),
      });
    }
    const seen = new Set(generated.map((item) => item.externalTxnId));
    for (const [index, item] of (account.transactions ?? []).entries()) {
      const at = resolveTime(item.at, now);
      if (at > now) throw invalid(`${path}.transactions.${index}.at`, 'Must not be in the future');
      const status = item.status ?? 'posted';
      if (status === 'posted' && (item.settleAfter || item.expireAfter)) {
        throw invalid(`${path}.transactions.${index}.status`, 'Only a pending transaction settles or expires');
      }
      const externalTxnId = item.externalTxnId ?? `scn_${account.key}_x${index}`;
      if (seen.has(externalTxnId)) throw invalid(`${path}.transactions.${index}.externalTxnId`, 'Used twice in this account');
      seen.add(externalTxnId);
      planned.push({
        accountIndex,
        id: uuidv7(),
        external_txn_id: externalTxnId,
        amount: item.amount,
        date: at.toISOString(),
        description: item.description,
        status,
        posted_at: status === 'posted' ? at.toISOString() : null,
        merchant: item.merchant ?? null,
        category: item.category ?? null,
        settle_at: item.settleAfter ? addIsoDuration(at, item.settleAfter).toISOString() : null,
        expire_at: item.expireAfter ? addIsoDuration(at, item.expireAfter).toISOString() : null,
        ...explicitConversion(item, account.currency ?? 'PLN', `${path}.transactions.${index}`),
      });
    }
    if (planned.length > SCENARIO_LIMITS.transactions) {
      throw scenarioTooLarge(
        `${path}.transactions`,
        `At most ${SCENARIO_LIMITS.transactions} transactions per apply, generated ones included`,
      );
    }
  }
  return planned;
}

/** The most occurrences a paused schedule may have between its start and now (about two years of hourly runs). */
const PAUSED_BACKLOG = 20_000;

/**
 * Checks every schedule as `POST …/schedules` does (an active one starts at most two years back; a
 * usable rule and zone) and counts the past occurrences that will fire at once (a paused schedule fires none): they
 * are transactions of this apply too, so they must fit in what the document leaves of the bound.
 */
export function countDueRuns(scenario: Scenario, now: Date, budget: number): number {
  let due = 0;
  for (const [accountIndex, account] of scenario.accounts.entries()) {
    for (const [index, schedule] of (account.schedules ?? []).entries()) {
      const path = `scenario.accounts.${accountIndex}.schedules.${index}`;
      const startAt = schedule.startAt ? resolveTime(schedule.startAt, now) : now;
      // A paused schedule backfills nothing (it resumes at its next occurrence), so the two-year bound
      // on its start does not apply: an export keeps one paused for years as it is. What bounds it is
      // the walk from its start that resuming and every run make: at most PAUSED_BACKLOG occurrences.
      const tooEarly = schedule.paused === true ? null : startAtProblem(startAt, now);
      if (tooEarly) throw invalid(`${path}.startAt`, tooEarly);
      const timezone = schedule.timezone ?? DEFAULT_TIMEZONE;
      const problem = recurrenceProblem(schedule.rrule, timezone, startAt);
      if (problem) throw invalid(`${path}.${problem.field}`, problem.message);
      if (
        schedule.paused === true &&
        recurrence(schedule.rrule, timezone, startAt).countThrough(now, PAUSED_BACKLOG) > PAUSED_BACKLOG
      ) {
        throw invalid(`${path}.startAt`, `A paused schedule may have at most ${PAUSED_BACKLOG} occurrences before now`);
      }
      if ((schedule.status ?? 'posted') === 'posted' && schedule.settleAfter) {
        throw invalid(`${path}.settleAfter`, 'Only a pending schedule settles');
      }
      const standingOrder = standingOrderProblem({ ...schedule, payment: schedule.payment ?? null });
      if (standingOrder) throw invalid(`${path}.${standingOrder.field}`, standingOrder.message);
      const payee = schedule.payment && 'account' in schedule.payment.to ? schedule.payment.to.account : null;
      if (payee !== null) {
        const target = scenario.accounts.find((other) => other.key === payee);
        if (!target) throw invalid(`${path}.payment.to.account`, `No account of the document has the key ${payee}`);
        if (target === account) throw invalid(`${path}.payment.to.account`, "Must be another account than the schedule's own");
      } else if (schedule.payment && 'iban' in schedule.payment.to) {
        const schemeProblem = standingOrderSchemeProblem(schedule.payment, account.currency ?? 'PLN');
        if (schemeProblem) throw invalid(`${path}.${schemeProblem.field}`, schemeProblem.message);
      }
      if (schedule.paused === true || startAt > now) continue;
      due += recurrence(schedule.rrule, timezone, startAt).countThrough(now, budget - due);
      if (due > budget) {
        throw scenarioTooLarge(
          path,
          `At most ${SCENARIO_LIMITS.transactions} transactions per apply, counting the past occurrences of schedules (they fire at once) with the document's transactions`,
        );
      }
    }
  }
  return due;
}

/**
 * Funds, as the ledger checks a booking. The apply books the whole document at once (one statement,
 * then the balances from all rows), and what the database enforces of any booking is the state it
 * leaves: per account a balance (Σ posted) within 0…10^15 and an available balance (balance − the
 * holds of pending debits) never below zero. That is checked here, per account, before writing.
 *
 * Dates order the history, not the bookings: a debit dated before the credit that pays for it is a
 * back-dated booking, which a simulation may make too (docs/concepts/worlds.md). A world Sandbank accepted booking by
 * booking may hold such a debit, and its export must apply again (docs/concepts/scenarios.md), so the running balance
 * in date order is not a rule here. (Generated histories keep it non-negative anyway.)
 */
export function checkFunds(
  scenario: Scenario,
  plan: (Omit<PlannedTransaction, 'account_id'> & { accountIndex: number })[],
): void {
  // BigInt: 50,000 amounts of up to 10^12 sum beyond Number's safe integers.
  const sums = scenario.accounts.map(() => ({ balance: 0n, held: 0n }));
  for (const row of plan) {
    const sum = sums[row.accountIndex];
    if (!sum) continue;
    if (row.status === 'posted') sum.balance += BigInt(row.amount);
    else if (row.amount < 0) sum.held -= BigInt(row.amount);
  }
  for (const [accountIndex, { balance, held }] of sums.entries()) {
    const path = `scenario.accounts.${accountIndex}.transactions`;
    if (balance > BigInt(MAX_BALANCE)) {
      const message = `The posted amounts sum to ${balance}, above the balance limit of ${MAX_BALANCE}`;
      throw new AppError('BALANCE_LIMIT_EXCEEDED', message, { details: [{ path, message }] });
    }
    if (balance - held < 0n) {
      const message = `The posted amounts sum to ${balance} and pending debits hold ${held}: the available balance would be ${balance - held}, below zero`;
      throw new AppError('INSUFFICIENT_FUNDS', message, { details: [{ path, message }] });
    }
  }
}
