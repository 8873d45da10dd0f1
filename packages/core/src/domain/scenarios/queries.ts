/**
 * The SQL of scenarios (docs/architecture.md, "The schema"; what they do: apply-scenario.ts,
 * export-scenario.ts): one named function per statement, written with Kysely over the generated
 * tables (`kysely(em)`). The apply's two set-wise statements take their rows as one JSON parameter.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import type { Category } from '@sandbank/schemas';
import { sql } from 'kysely';
import type { StandingOrderPayment } from '../schedules/queries.ts';

/** A JSON list of ids as a set of uuids (one parameter, however many). */
const uuidsOf = (ids: readonly string[]) =>
  sql<string>`(select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/** One planned transaction of a scenario, with its account: a record of the insert's recordset. */
export interface ScenarioTransactionRow {
  account_id: string;
}

/** Every planned transaction of the apply in one statement (`rows` as the recordset's JSON). */
export async function insertScenarioTransactions(
  tx: EntityManager,
  { userId, now, rows }: { userId: string; now: Date; rows: readonly ScenarioTransactionRow[] },
): Promise<void> {
  const db = kysely(tx);
  const planned = sql<PlannedTransaction>`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`.as<'r'>(
    sql`r(id uuid, account_id uuid, external_txn_id text, amount bigint, date timestamptz, description text, status text,
          posted_at timestamptz, merchant text, category text, settle_at timestamptz, expire_at timestamptz,
          original_amount bigint, original_currency text, exchange_rate numeric)`,
  );
  await db
    .insertInto('transactions')
    .columns([
      'id',
      'account_id',
      'user_id',
      'external_txn_id',
      'amount',
      'currency',
      'date',
      'description',
      'raw',
      'status',
      'posted_at',
      'merchant',
      'category',
      'settle_at',
      'expire_at',
      'created_at',
      'original_amount',
      'original_currency',
      'exchange_rate',
    ])
    .expression(
      db
        .selectFrom(planned)
        .innerJoin('accounts as a', 'a.id', 'r.account_id')
        .select([
          'r.id',
          'r.account_id',
          sql<string>`${userId}::uuid`.as('user_id'),
          'r.external_txn_id',
          'r.amount',
          'a.currency',
          'r.date',
          'r.description',
          sql<string>`'{"source":"scenario"}'::jsonb`.as('raw'),
          'r.status',
          'r.posted_at',
          'r.merchant',
          'r.category',
          'r.settle_at',
          'r.expire_at',
          sql<string>`${now.toISOString()}::timestamptz`.as('created_at'),
          'r.original_amount',
          'r.original_currency',
          'r.exchange_rate',
        ]),
    )
    .execute();
}

/** A record of the insert's recordset, as PostgreSQL reads it. */
type PlannedTransaction = Pick<
  Row<'transactions'>,
  | 'id'
  | 'account_id'
  | 'external_txn_id'
  | 'amount'
  | 'date'
  | 'description'
  | 'status'
  | 'posted_at'
  | 'merchant'
  | 'category'
  | 'settle_at'
  | 'expire_at'
  | 'original_amount'
  | 'original_currency'
  | 'exchange_rate'
>;

/**
 * The balances, holds and counts of these accounts, from all their rows at once (the sums the
 * booking statement keeps one row at a time).
 */
export async function applyScenarioBalances(tx: EntityManager, accountIds: readonly string[]): Promise<void> {
  const db = kysely(tx);
  const sums = db
    .selectFrom('transactions')
    .select([
      'account_id',
      sql<string>`coalesce(sum(amount) filter (where status = 'posted'), 0)`.as('balance'),
      sql<string>`coalesce(-sum(amount) filter (where status = 'pending' and amount < 0), 0)`.as('held'),
      sql<string>`count(*) filter (where status <> 'voided')`.as('count'),
    ])
    .where('account_id', 'in', uuidsOf(accountIds))
    .groupBy('account_id')
    .as('s');
  await db
    .updateTable('accounts as a')
    .from(sums)
    .set((eb) => ({ balance: eb.ref('s.balance'), held_amount: eb.ref('s.held'), transaction_count: eb.ref('s.count') }))
    .whereRef('a.id', '=', 's.account_id')
    .execute();
}

/** The one `scenario.applied` event of an apply. */
export async function insertScenarioAppliedEvent(
  tx: EntityManager,
  { eventId, userId, summary, now }: { eventId: string; userId: string; summary: object; now: Date },
): Promise<void> {
  await kysely(tx)
    .insertInto('events')
    .values({
      id: eventId,
      type: 'scenario.applied',
      user_id: userId,
      payload: sql`${JSON.stringify({ scenario: summary })}::jsonb`,
      created_at: now.toISOString(),
    })
    .execute();
}

/** Whether anything of the world comes due by `until`: an active schedule's next run, a pending transaction's settlement or expiry. */
export async function selectHasDueItems(tx: EntityManager, userId: string, until: Date): Promise<boolean> {
  const at = until.toISOString();
  const row = await kysely(tx)
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('schedules')
              .select('id')
              .where('user_id', '=', userId)
              .where('state', '=', 'active')
              .where('next_run_at', '<=', at),
          ),
          eb.exists(
            eb
              .selectFrom('transactions')
              .select('id')
              .where('user_id', '=', userId)
              .where('status', '=', 'pending')
              .where(sql`least(settle_at, expire_at)`, '<=', at),
          ),
        ])
        .as('due'),
    )
    .executeTakeFirst();
  return row?.due === true;
}

/** How many runs of these schedules booked a transaction, and how many failed. */
export async function countScheduleRuns(
  em: EntityManager,
  scheduleIds: readonly string[],
): Promise<{ booked: number; failed: number }> {
  const runs = await kysely(em)
    .selectFrom('schedule_runs')
    .select([
      (eb) => eb.fn.count<string>('transaction_id').as('booked'),
      sql<string>`count(*) - count(transaction_id)`.as('failed'),
    ])
    .where('schedule_id', 'in', uuidsOf(scheduleIds))
    .executeTakeFirst();
  return { booked: Number(runs?.booked ?? 0), failed: Number(runs?.failed ?? 0) };
}

/** An open account of a scenario; false when the user already has an open account of that name. */
export async function insertScenarioAccount(
  tx: EntityManager,
  { id, userId, name, currency, now }: { id: string; userId: string; name: string; currency: string; now: Date },
): Promise<boolean> {
  const inserted = await kysely(tx)
    .insertInto('accounts')
    .values({ id, user_id: userId, name, currency, balance: 0, status: 'open', created_at: now.toISOString() })
    .onConflict((conflict) =>
      conflict
        .expression(sql`user_id, lower(name)`)
        // A literal: PostgreSQL infers the partial unique index from the predicate's text, not from a parameter.
        .where(sql<boolean>`status = 'open'`)
        .doNothing(),
    )
    .returning('id')
    .execute();
  return inserted.length > 0;
}

export type ExportedAccountRow = Pick<Row<'accounts'>, 'id' | 'name' | 'currency'>;

export type ExportedTransactionRow = Pick<
  Row<'transactions'>,
  | 'account_id'
  | 'external_txn_id'
  | 'amount'
  | 'date'
  | 'description'
  | 'merchant'
  | 'settle_at'
  | 'expire_at'
  | 'original_amount'
  | 'original_currency'
  | 'exchange_rate'
> & { status: 'pending' | 'posted'; category: Category | null };

export type ExportedScheduleRow = Pick<
  Row<'schedules'>,
  'account_id' | 'amount' | 'description' | 'merchant' | 'rrule' | 'timezone' | 'settle_after' | 'next_run_n'
> & {
  category: Category | null;
  status: 'pending' | 'posted';
  state: 'active' | 'paused';
  /** Never null for a schedule that has not ended. */
  next_run_at: string;
  payment: StandingOrderPayment | null;
};

/** The user's open accounts, in creation order. */
export async function selectExportedAccounts(em: EntityManager, userId: string): Promise<ExportedAccountRow[]> {
  return kysely(em)
    .selectFrom('accounts')
    .select(['id', 'name', 'currency'])
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The user's transactions that are not voided, by date and externalTxnId. */
export async function selectExportedTransactions(em: EntityManager, userId: string): Promise<ExportedTransactionRow[]> {
  return kysely(em)
    .selectFrom('transactions')
    .select((eb) => [
      'account_id',
      'external_txn_id',
      'amount',
      'date',
      'description',
      eb.ref('status').$castTo<'pending' | 'posted'>().as('status'),
      'merchant',
      eb.ref('category').$castTo<Category | null>().as('category'),
      'settle_at',
      'expire_at',
      'original_amount',
      'original_currency',
      sql<string | null>`exchange_rate::text`.as('exchange_rate'),
    ])
    .where('user_id', '=', userId)
    .where('status', '<>', 'voided')
    .orderBy('date')
    .orderBy('external_txn_id')
    .execute();
}

/** The user's schedules that have not ended, in creation order. */
export async function selectExportedSchedules(em: EntityManager, userId: string): Promise<ExportedScheduleRow[]> {
  return kysely(em)
    .selectFrom('schedules')
    .select((eb) => [
      'account_id',
      'amount',
      'description',
      'merchant',
      eb.ref('category').$castTo<Category | null>().as('category'),
      'rrule',
      'timezone',
      eb.ref('status').$castTo<'pending' | 'posted'>().as('status'),
      'settle_after',
      eb.ref('state').$castTo<'active' | 'paused'>().as('state'),
      eb.ref('next_run_at').$castTo<string>().as('next_run_at'),
      'next_run_n',
      eb.ref('payment').$castTo<StandingOrderPayment | null>().as('payment'),
    ])
    .where('user_id', '=', userId)
    .where('state', '<>', 'ended')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
