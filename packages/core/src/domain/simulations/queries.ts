/**
 * The SQL of simulated bookings (docs/architecture.md, "The schema"; why the booking is one
 * statement and why it is correct: simulation-statement.ts): one named function per statement.
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

/** How far in the future a `date` may lie, to forgive the caller's clock. */
export const CLOCK_SKEW_MS = 60_000;

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The conversion a card payment assumed (card-payments.ts, `assumedConversion`), checked in the booking's own
 * snapshot: the booking's Warsaw day, the account's margin and the world's seed are the assumed ones, and the world
 * pins no rate in the ten days up to it (the window the conversion's own read takes pins from). So the
 * rate is the one valid for the statement that books it; else nothing is written and the caller reads again.
 */
const CONVERSION_GUARD = `
    and a.card_fx_margin = ?::numeric and (clock.now at time zone 'Europe/Warsaw')::date = ?::date
    and clock.fx_seed is not distinct from ?::integer
    and not exists (select 1 from fx_rate_pins p where p.user_id = a.user_id and p.day between ?::date - 10 and ?::date)`;

const simulateSql = (guard: string) => `
with clock as (
  select coalesce(?::timestamptz, ${WORLD_NOW_SQL}) as now, u.fx_seed from users u where u.id = ?
), account as (
  select a.id, a.user_id, a.currency, clock.now from accounts a, clock
  where a.id = ? and a.user_id = ? and a.status = 'open' and a.currency = coalesce(?::text, a.currency)
    and a.balance + ? <= ? and a.balance + ? - a.held_amount - ? >= 0
    and coalesce(?::timestamptz, clock.now) <= clock.now + interval '${CLOCK_SKEW_MS} milliseconds'${guard}
  for no key update of a
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw,
                            status, posted_at, merchant, category, settle_at, expire_at, request_fingerprint, created_at,
                            original_amount, original_currency, exchange_rate)
  select ?, account.id, account.user_id, ?, ?, account.currency, coalesce(?::timestamptz, account.now), ?, ?::jsonb,
         ?, case when ? = 'posted' then coalesce(?::timestamptz, account.now) end, ?, ?, ?::timestamptz, ?::timestamptz,
         ?, account.now, ?::bigint, ?::text, ?::numeric
  from account
  on conflict (account_id, external_txn_id) do nothing
  returning ${TRANSACTION_COLUMNS}
), applied as (
  update accounts set balance = accounts.balance + ?, held_amount = accounts.held_amount + ?,
                      transaction_count = accounts.transaction_count + 1
  from inserted where accounts.id = inserted.account_id
  returning accounts.balance, accounts.held_amount
), event as (
  insert into events (id, type, user_id, payload, created_at)
  select ?, 'transaction.created', account.user_id, jsonb_build_object(
           'transaction', ?::jsonb || jsonb_build_object('date', ${ISO('inserted.date')}, 'postedAt', ${ISO('inserted.posted_at')},
                                                  'currency', inserted.currency),
           'balances', jsonb_build_object('balance', applied.balance, 'availableBalance', applied.balance - applied.held_amount)),
         account.now
  from inserted, account, applied
)
select inserted.*, applied.balance, applied.held_amount from inserted, applied`;

const SIMULATE_STATEMENT = { name: 'sandbank_simulate_v4', sql: simulateSql('') };
/** The same booking with its conversion's assumptions checked (CONVERSION_GUARD): one round trip, as a plain booking. */
const SIMULATE_CONVERTED_STATEMENT = { name: 'sandbank_simulate_converted_v1', sql: simulateSql(CONVERSION_GUARD) };

/** What a converted booking assumed about the account and the world (CONVERSION_GUARD). */
export interface ConversionGuard {
  cardFxMargin: string;
  /** The booking's day in Europe/Warsaw, YYYY-MM-DD. */
  day: string;
  fxSeed: number | null;
}

/** The values of one booking, as bound into SIMULATE (timestamps as ISO strings, JSON as text). */
export interface SimulatedBooking {
  /** The instant booked at; null: the world's now. */
  at: string | null;
  userId: string;
  accountId: string;
  deltaBalance: number;
  deltaHeld: number;
  maxBalance: number;
  /** The transaction's date; null: the booking's now. */
  date: string | null;
  id: string;
  externalTxnId: string;
  amount: number;
  /** The currency asked for; null: the account's. A currency other than the account's writes nothing. */
  currency: string | null;
  description: string;
  raw: string;
  status: string;
  merchant: string | null;
  category: string | null;
  settleAt: string | null;
  expireAt: string | null;
  requestFingerprint: string;
  /** A card payment in another currency: what the merchant charged and the rate (all three or none). */
  originalAmount: number | null;
  originalCurrency: string | null;
  exchangeRate: string | null;
  eventId: string;
  /** The transaction as the event shows it (JSON). */
  eventTransaction: string;
  /** A converted booking's assumptions, checked by the statement (nothing written when one fails). */
  guard?: ConversionGuard | undefined;
}

export type BookedRow = TransactionRow & { balance: string | number; held_amount: string | number };

/** The booking statement (a named prepared statement); the stored row and the balances after it, or undefined if nothing was written. */
export async function insertSimulatedBooking(em: EntityManager, b: SimulatedBooking): Promise<BookedRow | undefined> {
  const { guard } = b;
  const [result] = await executeHot<BookedRow>(em, guard ? SIMULATE_CONVERTED_STATEMENT : SIMULATE_STATEMENT, [
    b.at,
    b.userId,
    b.accountId,
    b.userId,
    b.currency,
    b.deltaBalance,
    b.maxBalance,
    b.deltaBalance,
    b.deltaHeld,
    b.date,
    ...(guard ? [guard.cardFxMargin, guard.day, guard.fxSeed, guard.day, guard.day] : []),
    b.id,
    b.externalTxnId,
    b.amount,
    b.date,
    b.description,
    b.raw,
    b.status,
    b.status,
    b.date,
    b.merchant,
    b.category,
    b.settleAt,
    b.expireAt,
    b.requestFingerprint,
    b.originalAmount,
    b.originalCurrency,
    b.exchangeRate,
    b.deltaBalance,
    b.deltaHeld,
    b.eventId,
    b.eventTransaction,
  ]);
  return result;
}

const PROBE = `
select a.status as account_status, a.currency as account_currency, a.balance, a.held_amount, ${TRANSACTION_COLUMNS.split(', ')
  .map((column) => `t.${column}`)
  .join(', ')}, t.settle_at, t.expire_at, t.request_fingerprint
from accounts a left join transactions t on t.account_id = a.id and t.external_txn_id = ?
where a.id = ? and a.user_id = ?`;

/** A stored transaction with the due times and the request it was booked with (compared when a request repeats). */
export type StoredTransaction = TransactionRow & {
  settle_at: Date | string | null;
  expire_at: Date | string | null;
  request_fingerprint: string | null;
};

export type ProbeRow = StoredTransaction & {
  account_status: 'open' | 'closed';
  account_currency: string;
  balance: string;
  held_amount: string;
};

/** The account as the caller may see it, and any transaction of it stored under `externalTxnId`; undefined: no such account of the user. */
export async function selectSimulationProbe(
  em: EntityManager,
  { userId, accountId, externalTxnId }: { userId: string; accountId: string; externalTxnId: string },
): Promise<ProbeRow | undefined> {
  const [found] = await em.execute<ProbeRow[]>(PROBE, [externalTxnId, accountId, userId]);
  return found;
}
