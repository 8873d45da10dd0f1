/**
 * `GET /v1/scenarios/export` (docs/concepts/scenarios.md): the caller's world as a scenario — explicit transactions
 * and schedules, no generators, no secrets (webhooks are left out: they survive a reset and carry
 * a secret). Applying it to a new user gives the same world: the same accounts, transactions
 * (externalTxnId, amount, date, status, description, merchant, category, due times) and schedules
 * going on from their next occurrence; `asOf` carries the world's now, so a world whose clock ran
 * ahead is rebuilt at the same time.
 *
 * What it cannot carry: voided transactions (gone from the world), the link of a reversal to its
 * original (exported as a plain posted transaction), the pending past of a posted transaction, and
 * schedule runs (their transactions are exported; a COUNT rule counts only the runs still to come).
 * Everything is ordered (accounts by creation, transactions by date and externalTxnId), so export
 * → apply → export gives the same document.
 */
import type { EntityManager } from '@sandbank/db';
import type { Currency } from '@sandbank/schemas';
import { Duration } from 'luxon';
import { readClock } from '../clock/clock.ts';
import { selectFxWorld } from '../currencies/queries.ts';
import type { StandingOrderPayment } from '../schedules/queries.ts';
import { selectExportedAccounts, selectExportedSchedules, selectExportedTransactions } from './queries.ts';
import type { Scenario, ScenarioStandingOrder } from './scenario-document.ts';

const after = (from: Date, to: Date | null) => (to ? Duration.fromMillis(to.getTime() - from.getTime()).toISO() : undefined);

/** COUNT=n counts from the first run; from the next run on, only the runs still to come remain. */
function remainingRule(rrule: string, nextRunN: number): string {
  return rrule.replace(
    /(^|;)COUNT=(\d+)/i,
    (_, lead: string, count: string) => `${lead}COUNT=${Math.max(1, Number(count) - nextRunN + 1)}`,
  );
}

export async function exportScenario(em: EntityManager, { userId }: { userId: string }): Promise<Scenario> {
  const { now } = await readClock(em, userId);
  const accounts = await selectExportedAccounts(em, userId);
  const transactions = await selectExportedTransactions(em, userId);
  const schedules = await selectExportedSchedules(em, userId);
  const fxSeed = (await selectFxWorld(em, userId, []))?.fx_seed ?? null;
  return {
    version: 1,
    seed: 0,
    // Only what differs from the defaults: a PLN world on the default rates exports as it always did.
    ...(fxSeed !== null ? { fxSeed } : {}),
    asOf: now.toISOString(),
    accounts: accounts.map((account, index) => ({
      key: `a${index + 1}`,
      name: account.name,
      ...(account.currency !== 'PLN' ? { currency: account.currency as Currency } : {}),
      transactions: transactions
        .filter((row) => row.account_id === account.id)
        .map((row) => {
          const date = new Date(row.date);
          const settleAfter = row.settle_at ? after(date, new Date(row.settle_at)) : undefined;
          const expireAfter = row.expire_at ? after(date, new Date(row.expire_at)) : undefined;
          return {
            at: date.toISOString(),
            amount: Number(row.amount),
            description: row.description,
            merchant: row.merchant,
            category: row.category,
            status: row.status,
            ...(settleAfter ? { settleAfter } : {}),
            ...(expireAfter ? { expireAfter } : {}),
            externalTxnId: row.external_txn_id,
            ...(row.original_currency !== null
              ? {
                  originalAmount: Number(row.original_amount),
                  originalCurrency: row.original_currency as Currency,
                  exchangeRate: row.exchange_rate ?? '',
                }
              : {}),
          };
        }),
      schedules: schedules
        // A standing order to a closed account is left out: its next run would end it (the account is closed).
        .filter((row) => row.account_id === account.id && payeeExported(row.payment, accounts))
        .map((row) => ({
          amount: Number(row.amount),
          description: row.description,
          merchant: row.merchant,
          category: row.category,
          rrule: remainingRule(row.rrule, row.next_run_n),
          timezone: row.timezone,
          startAt: new Date(row.next_run_at).toISOString(),
          status: row.status,
          ...(row.settle_after ? { settleAfter: row.settle_after } : {}),
          ...(row.state === 'paused' ? { paused: true } : {}),
          ...(row.payment ? { payment: exportedPayment(row.payment, accounts) } : {}),
        })),
    })),
  };
}

/** Whether a standing order's own-account payee is among the exported (open) accounts; true for any other schedule. */
function payeeExported(payment: StandingOrderPayment | null, accounts: { id: string }[]): boolean {
  if (!payment || !('accountId' in payment.to)) return true;
  const target = payment.to.accountId;
  return accounts.some((account) => account.id === target);
}

/** A standing order as the document writes it: another own account by the key the export gives it (a<n>). */
function exportedPayment(payment: StandingOrderPayment, accounts: { id: string }[]): ScenarioStandingOrder {
  if (!('accountId' in payment.to)) return payment as ScenarioStandingOrder;
  const target = payment.to.accountId;
  return { to: { account: `a${accounts.findIndex((account) => account.id === target) + 1}` } };
}
