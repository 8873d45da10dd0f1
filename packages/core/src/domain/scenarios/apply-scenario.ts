/**
 * `POST /v1/scenarios/apply` (docs/concepts/scenarios.md): build a world from a scenario document, all or none.
 *
 * Everything is checked before anything is written (bounds, rules, zones, names, funds as the
 * ledger checks a booking: see checkFunds in plan-scenario.ts), then written in ONE database transaction under the
 * world's clock lock: the accounts, every transaction in one bulk statement, the balances, holds
 * and counts from those rows, the schedules, the webhooks, and one `scenario.applied` event — not
 * one per transaction. Its payload names the accounts the scenario created: sync
 * (transactions/sync-transactions.ts) expands the event into their rows, so sync cursors keep
 * working across an apply (only `reset: true` expires them, as any reset does).
 *
 * Schedules that start in the past (at most two years back, as for `POST …/schedules`) then catch
 * up, still under the clock lock but after that commit: their past occurrences fire in due order as
 * an advance fires them, each booked in its own short database transaction with its own
 * `transaction.created` event (a crash part-way leaves a consistent world whose remaining runs the
 * worker fires within a minute). They are counted before anything is written: the document's
 * transactions and these runs together stay within the 50,000 of one apply.
 *
 * The database still has the last word: CHECKs on balances and holds, the unique open-name index.
 */
import type { EntityManager } from '@sandbank/db';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { addIsoDuration } from '../../lib/duration.ts';
import { uuidv7 } from '../../lib/ids.ts';
import {
  advanceTooLarge,
  beyondClockEnd,
  LATEST_CLOCK,
  MAX_ADVANCE,
  moveClockTo,
  readClock,
  withClockLock,
} from '../clock/clock.ts';
import { selectFxWorld, updateFxSeed } from '../currencies/queries.ts';
import { DEFAULT_FX_SEED } from '../currencies/reference-rates.ts';
import { fireDueItems } from '../due-items/due-items.ts';
import { checkUserLimit } from '../limits/per-user-limits.ts';
import { resetWorld } from '../sandbox/reset-sandbox.ts';
import type { StandingOrderPayment } from '../schedules/queries.ts';
import { DEFAULT_TIMEZONE, insertSchedule } from '../schedules/schedules.ts';
import { registerWebhook } from '../webhooks/webhooks.ts';
import { checkFunds, countDueRuns, planTransactions, resolveTime } from './plan-scenario.ts';
import {
  applyScenarioBalances,
  countScheduleRuns,
  insertScenarioAccount,
  insertScenarioAppliedEvent,
  insertScenarioTransactions,
  selectHasDueItems,
} from './queries.ts';
import { checkScenarioBounds, SCENARIO_LIMITS, type Scenario, type ScenarioStandingOrder } from './scenario-document.ts';

export interface ApplyScenarioParams {
  userId: string;
  scenario: Scenario;
  reset?: boolean | undefined;
}

export interface ApplyScenarioResult {
  accounts: { key: string; id: string; name: string }[];
  /** Written from the document (generated and explicit), in bulk, under the one scenario.applied event. */
  transactions: number;
  schedules: number;
  /** The schedules' past occurrences that fired (the backfill): booked ones are transactions with events of their own. */
  scheduleRuns: { booked: number; failed: number };
  webhooks: number;
  eventId: string;
}

export async function applyScenario(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  { userId, scenario, reset = false }: ApplyScenarioParams,
): Promise<ApplyScenarioResult> {
  checkScenarioBounds(scenario);
  return withClockLock(em, userId, async () => {
    const built = await em.transactional(async (tx) => {
      if (reset) await resetWorld(tx, userId);
      if (scenario.fxSeed !== undefined) await updateFxSeed(tx, userId, scenario.fxSeed);
      let { now } = await readClock(tx, userId);
      let clockMoved = false;
      if (scenario.asOf) {
        const asOf = resolveTime(scenario.asOf, now);
        // What the world has due on the way fires, so there the jump is bounded as an advance is (a
        // far asOf would fire years of a schedule's runs). A world with nothing due by asOf (a new
        // user, or after `reset`) takes an exported clock however far it ran.
        if (asOf > addIsoDuration(now, MAX_ADVANCE) && (await selectHasDueItems(tx, userId, asOf))) {
          throw advanceTooLarge('scenario.asOf');
        }
        if (asOf > LATEST_CLOCK) throw beyondClockEnd('scenario.asOf');
        if (asOf > now) {
          await moveClockTo(tx, userId, asOf);
          now = (await readClock(tx, userId)).now;
          clockMoved = true;
        }
      }
      const fxSeed = (await selectFxWorld(tx, userId, []))?.fx_seed ?? DEFAULT_FX_SEED;
      const plan = planTransactions(scenario, now, fxSeed);
      const dueRuns = countDueRuns(scenario, now, SCENARIO_LIMITS.transactions - plan.length);
      checkFunds(scenario, plan);
      checkSchedulesPerAccount(scenario, deps.config.limits.schedulesPerAccount);
      await checkUserLimit(tx, {
        userId,
        resource: 'openAccounts',
        limit: deps.config.limits.openAccounts,
        adding: scenario.accounts.length,
      });
      const accounts = await insertAccounts(tx, userId, scenario, now);
      const rows = plan.map(({ accountIndex, ...row }) => ({ ...row, account_id: accounts[accountIndex]?.id ?? '' }));
      if (rows.length > 0) {
        await insertScenarioTransactions(tx, { userId, now, rows });
        await applyScenarioBalances(
          tx,
          accounts.map((account) => account.id),
        );
      }
      const scheduleIds = await insertSchedules(tx, userId, scenario, accounts, now);
      let webhooks = 0;
      for (const [index, webhook] of (scenario.webhooks ?? []).entries()) {
        await registerWebhook(tx, deps, { userId, ...webhook }).catch((error: unknown) => {
          throw error instanceof AppError ? rePath(error, `scenario.webhooks.${index}`) : error;
        });
        webhooks += 1;
      }
      const eventId = uuidv7();
      const summary = {
        seed: scenario.seed,
        accounts: accounts.map(({ key, id }) => ({ key, id })),
        transactions: rows.length,
        schedules: scheduleIds.length,
        webhooks,
      };
      await insertScenarioAppliedEvent(tx, { eventId, userId, summary, now });
      return { accounts, transactions: rows.length, scheduleIds, webhooks, eventId, now, dueRuns, clockMoved };
    });
    const { scheduleIds, now, dueRuns, clockMoved, ...result } = built;
    // What the world already had due before a forward asOf fires now too, in due order, as an advance
    // would have fired it, rather than whenever the worker next looks.
    const scheduleRuns =
      dueRuns > 0 || clockMoved ? await backfill(em, { userId, until: now, scheduleIds }) : { booked: 0, failed: 0 };
    return { ...result, schedules: scheduleIds.length, scheduleRuns };
  });
}

/**
 * Schedules that started in the past, and whatever a forward asOf overtook, catch up as an advance
 * would: everything due up to the apply's now fires in due order, each item in its own transaction
 * (the caller holds the clock lock).
 */
async function backfill(
  em: EntityManager,
  { userId, until, scheduleIds }: { userId: string; until: Date; scheduleIds: string[] },
): Promise<{ booked: number; failed: number }> {
  await fireDueItems(em, { userId, until, moveClock: false });
  return countScheduleRuns(em, scheduleIds);
}

function rePath(error: AppError, prefix: string): AppError {
  if (!error.details) return error;
  return new AppError(error.appCode, error.message, {
    details: error.details.map((detail) => ({ ...detail, path: `${prefix}.${detail.path}` })),
  });
}

async function insertAccounts(tx: EntityManager, userId: string, scenario: Scenario, now: Date) {
  const accounts: { key: string; id: string; name: string }[] = [];
  for (const [index, account] of scenario.accounts.entries()) {
    const id = uuidv7();
    const inserted = await insertScenarioAccount(tx, {
      id,
      userId,
      name: account.name,
      currency: account.currency ?? 'PLN',
      now,
    });
    if (!inserted) {
      throw new AppError('ACCOUNT_NAME_TAKEN', `You already have an open account named ${account.name}`, {
        details: [{ path: `scenario.accounts.${index}.name`, message: 'An open account has this name' }],
      });
    }
    accounts.push({ key: account.key, id, name: account.name });
  }
  return accounts;
}

/** A scenario's standing order as a schedule stores it: another account of the document by its id (its key is the document's). */
function schedulePayment(
  payment: ScenarioStandingOrder | undefined,
  scenario: Scenario,
  accounts: { id: string }[],
): StandingOrderPayment | null {
  if (!payment) return null;
  if (!('account' in payment.to)) return payment as StandingOrderPayment;
  const key = payment.to.account;
  const index = scenario.accounts.findIndex((account) => account.key === key);
  const target = accounts[index];
  // plan-scenario.ts refused a key no account has before anything was written.
  if (!target) throw new Error(`scenario account ${key} was not created`);
  return { to: { accountId: target.id } };
}

async function insertSchedules(
  tx: EntityManager,
  userId: string,
  scenario: Scenario,
  accounts: { id: string }[],
  now: Date,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [accountIndex, account] of scenario.accounts.entries()) {
    for (const schedule of account.schedules ?? []) {
      const { id } = await insertSchedule(tx, {
        userId,
        accountId: accounts[accountIndex]?.id ?? '',
        amount: schedule.amount,
        description: schedule.description,
        merchant: schedule.merchant ?? null,
        category: schedule.category ?? null,
        rrule: schedule.rrule,
        timezone: schedule.timezone ?? DEFAULT_TIMEZONE,
        startAt: schedule.startAt ? resolveTime(schedule.startAt, now) : now,
        status: schedule.status ?? 'posted',
        settleAfter: schedule.settleAfter ?? null,
        paused: schedule.paused === true,
        createdAt: now,
        payment: schedulePayment(schedule.payment, scenario, accounts),
      });
      ids.push(id);
    }
  }
  return ids;
}

/** Each account of the document starts empty: its schedules that are not ended are the document's own, paused ones included. */
function checkSchedulesPerAccount(scenario: Scenario, limit: number): void {
  for (const [index, account] of scenario.accounts.entries()) {
    const count = account.schedules?.length ?? 0;
    if (count > limit) {
      const path = `scenario.accounts.${index}.schedules`;
      throw new AppError('LIMIT_EXCEEDED', `The account has ${count} schedules; the limit is ${limit}`, {
        details: [{ path, message: `At most ${limit} schedules per account` }],
      });
    }
  }
}
