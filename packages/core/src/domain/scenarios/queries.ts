/**
 * The SQL of scenarios (docs/architecture.md, "The schema"; what they do: apply-scenario.ts,
 * export-scenario.ts): one named function per statement.
 */
import type { EntityManager } from '@sandbank/db';
import type { Category } from '@sandbank/schemas';
import type { StandingOrderPayment } from '../schedules/queries.ts';

const INSERT_TRANSACTIONS = `
insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status,
                          posted_at, merchant, category, settle_at, expire_at, created_at, original_amount, original_currency,
                          exchange_rate)
select r.id, r.account_id, ?, r.external_txn_id, r.amount, a.currency, r.date, r.description, '{"source":"scenario"}'::jsonb, r.status,
       r.posted_at, r.merchant, r.category, r.settle_at, r.expire_at, ?::timestamptz, r.original_amount, r.original_currency,
       r.exchange_rate
  from jsonb_to_recordset(?::jsonb) as r(id uuid, account_id uuid, external_txn_id text, amount bigint, date timestamptz,
       description text, status text, posted_at timestamptz, merchant text, category text, settle_at timestamptz, expire_at timestamptz,
       original_amount bigint, original_currency text, exchange_rate numeric)
  join accounts a on a.id = r.account_id`;

// The sums the booking statement keeps one row at a time, here from all rows at once.
const APPLY_BALANCES = `
update accounts a
   set balance = s.balance, held_amount = s.held, transaction_count = s.count
  from (select account_id,
               coalesce(sum(amount) filter (where status = 'posted'), 0) as balance,
               coalesce(-sum(amount) filter (where status = 'pending' and amount < 0), 0) as held,
               count(*) filter (where status <> 'voided') as count
          from transactions where account_id in (select value::uuid from jsonb_array_elements_text(?::jsonb)) group by account_id) s
 where a.id = s.account_id`;

/** One planned transaction of a scenario, with its account: a record of INSERT_TRANSACTIONS's recordset. */
export interface ScenarioTransactionRow {
  account_id: string;
}

/** Every planned transaction of the apply in one statement (`rows` as the recordset's JSON). */
export async function insertScenarioTransactions(
  tx: EntityManager,
  { userId, now, rows }: { userId: string; now: Date; rows: readonly ScenarioTransactionRow[] },
): Promise<void> {
  await tx.execute(INSERT_TRANSACTIONS, [userId, now.toISOString(), JSON.stringify(rows)]);
}

/** The balances, holds and counts of these accounts, from all their rows at once. */
export async function applyScenarioBalances(tx: EntityManager, accountIds: readonly string[]): Promise<void> {
  await tx.execute(APPLY_BALANCES, [JSON.stringify(accountIds)]);
}

/** The one `scenario.applied` event of an apply. */
export async function insertScenarioAppliedEvent(
  tx: EntityManager,
  { eventId, userId, summary, now }: { eventId: string; userId: string; summary: object; now: Date },
): Promise<void> {
  await tx.execute(
    `insert into events (id, type, user_id, payload, created_at) values (?, 'scenario.applied', ?, ?::jsonb, ?::timestamptz)`,
    [eventId, userId, JSON.stringify({ scenario: summary }), now.toISOString()],
  );
}

/** Whether anything of the world comes due by `until`: an active schedule's next run, a pending transaction's settlement or expiry. */
export async function selectHasDueItems(tx: EntityManager, userId: string, until: Date): Promise<boolean> {
  const [row] = await tx.execute<{ due: boolean }[]>(
    `select exists (select 1 from schedules where user_id = ? and state = 'active' and next_run_at <= ?::timestamptz)
         or exists (select 1 from transactions
                     where user_id = ? and status = 'pending' and least(settle_at, expire_at) <= ?::timestamptz) as due`,
    [userId, until.toISOString(), userId, until.toISOString()],
  );
  return row?.due === true;
}

/** How many runs of these schedules booked a transaction, and how many failed. */
export async function countScheduleRuns(
  em: EntityManager,
  scheduleIds: readonly string[],
): Promise<{ booked: number; failed: number }> {
  const [runs] = await em.execute<{ booked: string; failed: string }[]>(
    `select count(transaction_id) as booked, count(*) - count(transaction_id) as failed
       from schedule_runs where schedule_id in (select value::uuid from jsonb_array_elements_text(?::jsonb))`,
    [JSON.stringify(scheduleIds)],
  );
  return { booked: Number(runs?.booked ?? 0), failed: Number(runs?.failed ?? 0) };
}

/** An open account of a scenario; false when the user already has an open account of that name. */
export async function insertScenarioAccount(
  tx: EntityManager,
  { id, userId, name, currency, now }: { id: string; userId: string; name: string; currency: string; now: Date },
): Promise<boolean> {
  const inserted = await tx.execute<{ id: string }[]>(
    `insert into accounts (id, user_id, name, currency, balance, status, created_at)
       values (?, ?, ?, ?, 0, 'open', ?::timestamptz)
       on conflict (user_id, lower(name)) where status = 'open' do nothing returning id`,
    [id, userId, name, currency, now.toISOString()],
  );
  return inserted.length > 0;
}

export interface ExportedAccountRow {
  id: string;
  name: string;
  currency: string;
}

export interface ExportedTransactionRow {
  account_id: string;
  external_txn_id: string;
  amount: string;
  date: Date;
  description: string;
  status: 'pending' | 'posted';
  merchant: string | null;
  category: Category | null;
  settle_at: Date | null;
  expire_at: Date | null;
  original_amount: string | null;
  original_currency: string | null;
  exchange_rate: string | null;
}

export interface ExportedScheduleRow {
  account_id: string;
  amount: string;
  description: string;
  merchant: string | null;
  category: Category | null;
  rrule: string;
  timezone: string;
  status: 'pending' | 'posted';
  settle_after: string | null;
  state: 'active' | 'paused';
  next_run_at: Date;
  next_run_n: number;
  payment: StandingOrderPayment | null;
}

/** The user's open accounts, in creation order. */
export async function selectExportedAccounts(em: EntityManager, userId: string): Promise<ExportedAccountRow[]> {
  return em.execute<ExportedAccountRow[]>(
    `select id, name, currency from accounts where user_id = ? and status = 'open' order by created_at, id`,
    [userId],
  );
}

/** The user's transactions that are not voided, by date and externalTxnId. */
export async function selectExportedTransactions(em: EntityManager, userId: string): Promise<ExportedTransactionRow[]> {
  return em.execute<ExportedTransactionRow[]>(
    `select account_id, external_txn_id, amount, date, description, status, merchant, category, settle_at, expire_at,
            original_amount, original_currency, exchange_rate::text
       from transactions where user_id = ? and status <> 'voided' order by date, external_txn_id`,
    [userId],
  );
}

/** The user's schedules that have not ended, in creation order. */
export async function selectExportedSchedules(em: EntityManager, userId: string): Promise<ExportedScheduleRow[]> {
  return em.execute<ExportedScheduleRow[]>(
    `select account_id, amount, description, merchant, category, rrule, timezone, status, settle_after, state, next_run_at, next_run_n, payment
       from schedules where user_id = ? and state <> 'ended' order by created_at, id`,
    [userId],
  );
}
