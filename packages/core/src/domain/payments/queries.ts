/**
 * The SQL of payments (docs/architecture.md, "The schema"): one named function per statement.
 * Lock order, everywhere: a payment row, then its transactions (the lifecycle's own order:
 * transaction, then account); a new payment locks accounts only (in id order) and inserts rows.
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export interface PaymentRow {
  id: string;
  user_id: string;
  from_account_id: string;
  currency: string;
  to_account_id: string | null;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  amount: string | number;
  scheme: string;
  status: string;
  reason_code: string | null;
  reason_message: string | null;
  end_to_end_id: string;
  description: string;
  requested_execution_date: string | null;
  due_at: Date | string | null;
  accepted_at: Date | string | null;
  settled_at: Date | string | null;
  return_reason_code: string | null;
  return_reason_message: string | null;
  returned_at: Date | string | null;
  request_fingerprint: string;
  created_at: Date | string;
  /** Its transactions' ids, oldest first. */
  transaction_ids: string[];
}

const PAYMENT_COLUMNS = `p.id, p.user_id, p.from_account_id, p.currency, p.to_account_id, p.counterparty_name, p.counterparty_iban,
  p.amount, p.scheme, p.status, p.reason_code, p.reason_message, p.end_to_end_id, p.description,
  to_char(p.requested_execution_date, 'YYYY-MM-DD') as requested_execution_date, p.due_at, p.accepted_at, p.settled_at,
  p.return_reason_code, p.return_reason_message, p.returned_at, p.request_fingerprint, p.created_at,
  coalesce((select array_agg(t.id order by t.date, t.id) from transactions t where t.payment_id = p.id), '{}') as transaction_ids`;

/** The user's payment, or undefined (another user's is not found either); `lock`: FOR UPDATE. */
export async function selectPayment(
  em: EntityManager,
  { userId, paymentId, lock = false }: { userId: string; paymentId: string; lock?: boolean },
): Promise<PaymentRow | undefined> {
  const [row] = await em.execute<PaymentRow[]>(
    `select ${PAYMENT_COLUMNS} from payments p where p.id = ? and p.user_id = ?${lock ? ' for update of p' : ''}`,
    [paymentId, userId],
  );
  return row;
}

/** The payment stored under the user's idempotency key, or undefined. */
export async function selectPaymentByKey(em: EntityManager, userId: string, key: string): Promise<PaymentRow | undefined> {
  const [row] = await em.execute<PaymentRow[]>(
    `select ${PAYMENT_COLUMNS} from payments p where p.user_id = ? and p.idempotency_key = ?`,
    [userId, key],
  );
  return row;
}

export interface PaymentListParams {
  userId: string;
  accountId?: string | undefined;
  status?: string | undefined;
  limit: number;
  offset: number;
}

/** A page of the user's payments, newest first, and how many match. */
export async function selectPaymentPage(em: EntityManager, p: PaymentListParams): Promise<{ rows: PaymentRow[]; total: number }> {
  const where = ['p.user_id = ?'];
  const values: unknown[] = [p.userId];
  if (p.accountId) {
    where.push('(p.from_account_id = ? or p.to_account_id = ?)');
    values.push(p.accountId, p.accountId);
  }
  if (p.status) {
    where.push('p.status = ?');
    values.push(p.status);
  }
  const rows = await em.execute<(PaymentRow & { total: string })[]>(
    `select ${PAYMENT_COLUMNS}, count(*) over () as total from payments p where ${where.join(' and ')}
      order by p.created_at desc, p.id desc limit ? offset ?`,
    [...values, p.limit, p.offset],
  );
  const total = rows[0] ? Number(rows[0].total) : 0;
  if (!rows[0] && p.offset > 0) {
    const [count] = await em.execute<{ n: string }[]>(
      `select count(*) as n from payments p where ${where.join(' and ')}`,
      values,
    );
    return { rows: [], total: Number(count?.n ?? 0) };
  }
  return { rows, total };
}

export interface LockedAccountRow {
  id: string;
  name: string;
  currency: string;
  status: 'open' | 'closed';
  balance: string;
  held_amount: string;
}

/** The user's accounts among `ids`, locked FOR NO KEY UPDATE in id order (so two transfers never deadlock). */
export function lockAccounts(em: EntityManager, userId: string, ids: string[]): Promise<LockedAccountRow[]> {
  return em.execute<LockedAccountRow[]>(
    `select id, name, currency, status, balance, held_amount from accounts
      where user_id = ? and id in (${ids.map(() => '?').join(', ')}) order by id for no key update`,
    [userId, ...ids],
  );
}

/** The world's now, read in the current transaction. */
export async function selectWorldNow(em: EntityManager, userId: string): Promise<Date> {
  const [row] = await em.execute<{ now: Date | string }[]>(`select ${WORLD_NOW_SQL} as now from users u where u.id = ?`, [
    userId,
  ]);
  if (!row) throw new Error(`no user ${userId}`);
  return new Date(row.now);
}

export interface NewPayment {
  id: string;
  userId: string;
  fromAccountId: string;
  currency: string;
  toAccountId: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  amount: number;
  scheme: string;
  status: string;
  reasonCode: string | null;
  reasonMessage: string | null;
  endToEndId: string;
  description: string;
  requestedExecutionDate: string | null;
  dueAt: Date | null;
  acceptedAt: Date | null;
  settledAt: Date | null;
  idempotencyKey: string | null;
  requestFingerprint: string;
  at: Date;
}

const INSERT_PAYMENT = `insert into payments (id, user_id, from_account_id, currency, to_account_id, counterparty_name, counterparty_iban, amount,
                           scheme, status, reason_code, reason_message, end_to_end_id, description, requested_execution_date,
                           due_at, accepted_at, settled_at, idempotency_key, request_fingerprint, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::date, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?, ?, ?::timestamptz, ?::timestamptz)
     on conflict (user_id, idempotency_key) where idempotency_key is not null do nothing
     returning id`;

function paymentValues(p: NewPayment): unknown[] {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return [
    p.id,
    p.userId,
    p.fromAccountId,
    p.currency,
    p.toAccountId,
    p.counterpartyName,
    p.counterpartyIban,
    p.amount,
    p.scheme,
    p.status,
    p.reasonCode,
    p.reasonMessage,
    p.endToEndId,
    p.description,
    p.requestedExecutionDate,
    iso(p.dueAt),
    iso(p.acceptedAt),
    iso(p.settledAt),
    p.idempotencyKey,
    p.requestFingerprint,
    p.at.toISOString(),
    p.at.toISOString(),
  ];
}

/**
 * The row a new payment is as `selectPayment` would read it back in the same transaction (each
 * instant stored at the millisecond, the day as given), with its legs' ids (oldest first: the debit's
 * uuidv7 is made before the credit's, and both share the instant), so the booking need not read it.
 */
export function newPaymentRow(p: NewPayment, transactionIds: string[]): PaymentRow {
  return {
    id: p.id,
    user_id: p.userId,
    from_account_id: p.fromAccountId,
    currency: p.currency,
    to_account_id: p.toAccountId,
    counterparty_name: p.counterpartyName,
    counterparty_iban: p.counterpartyIban,
    amount: p.amount,
    scheme: p.scheme,
    status: p.status,
    reason_code: p.reasonCode,
    reason_message: p.reasonMessage,
    end_to_end_id: p.endToEndId,
    description: p.description,
    requested_execution_date: p.requestedExecutionDate,
    due_at: p.dueAt,
    accepted_at: p.acceptedAt,
    settled_at: p.settledAt,
    return_reason_code: null,
    return_reason_message: null,
    returned_at: null,
    request_fingerprint: p.requestFingerprint,
    created_at: p.at,
    transaction_ids: transactionIds,
  };
}

export interface PaymentChange {
  paymentId: string;
  status: string;
  reasonCode?: string | null;
  reasonMessage?: string | null;
  dueAt: Date | null;
  acceptedAt?: Date | null;
  settledAt?: Date | null;
  returnReasonCode?: string | null;
  returnReasonMessage?: string | null;
  returnedAt?: Date | null;
  at: Date;
}

/** Moves a payment on (fields left undefined keep their value); the payment after it, as `selectPayment` reads it. */
export async function updatePayment(em: EntityManager, c: PaymentChange): Promise<PaymentRow | undefined> {
  const keep = (value: unknown) => (value === undefined ? 'keep' : 'set');
  const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
  const [row] = await em.execute<PaymentRow[]>(
    `update payments p set status = ?, due_at = ?::timestamptz, updated_at = ?::timestamptz,
       reason_code = case when ? = 'set' then ? else reason_code end,
       reason_message = case when ? = 'set' then ? else reason_message end,
       accepted_at = case when ? = 'set' then ?::timestamptz else accepted_at end,
       settled_at = case when ? = 'set' then ?::timestamptz else settled_at end,
       return_reason_code = case when ? = 'set' then ? else return_reason_code end,
       return_reason_message = case when ? = 'set' then ? else return_reason_message end,
       returned_at = case when ? = 'set' then ?::timestamptz else returned_at end
     where p.id = ?
     returning ${PAYMENT_COLUMNS}`,
    [
      c.status,
      iso(c.dueAt),
      c.at.toISOString(),
      keep(c.reasonCode),
      c.reasonCode ?? null,
      keep(c.reasonMessage),
      c.reasonMessage ?? null,
      keep(c.acceptedAt),
      iso(c.acceptedAt),
      keep(c.settledAt),
      iso(c.settledAt),
      keep(c.returnReasonCode),
      c.returnReasonCode ?? null,
      keep(c.returnReasonMessage),
      c.returnReasonMessage ?? null,
      keep(c.returnedAt),
      iso(c.returnedAt),
      c.paymentId,
    ],
  );
  return row;
}

/** One transaction a payment books, as the API shows it (its event carries it), with the hold it adds. */
export interface PaymentLeg {
  transaction: Transaction;
  userId: string;
  /** How much the leg holds: |amount| of a pending debit, else 0. */
  held: number;
  eventId: string;
}

// Every leg in one statement: the rows, the balances (or holds) and a transaction.created event
// each, with the account's balances after it. Legs are on distinct accounts (a payment never goes
// to its own account), so each account row is updated once. `where` gates the legs.
const legsCtes = (where: string) => `
legs as (
  select * from jsonb_to_recordset(?::jsonb) as l(id uuid, account_id uuid, user_id uuid, external_txn_id text, amount bigint,
    currency text, date timestamptz, description text, raw jsonb, status text, posted_at timestamptz, merchant text, category text,
    payment_id uuid, counterpart_transaction_id uuid, original_amount bigint, original_currency text, exchange_rate numeric,
    held bigint, event_id uuid, event jsonb) ${where}
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status, posted_at,
                            merchant, category, payment_id, counterpart_transaction_id, original_amount, original_currency,
                            exchange_rate, created_at)
  select id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status, posted_at,
         merchant, category, payment_id, counterpart_transaction_id, original_amount, original_currency, exchange_rate, date
    from legs
), applied as (
  update accounts a set balance = a.balance + case when l.status = 'posted' then l.amount else 0 end,
                        held_amount = a.held_amount + l.held, transaction_count = a.transaction_count + 1
    from legs l where a.id = l.account_id
  returning a.id, a.balance, a.held_amount
)`;

const LEG_EVENTS = `
select l.event_id, 'transaction.created', l.user_id,
       jsonb_build_object('transaction', l.event,
                          'balances', jsonb_build_object('balance', ap.balance, 'availableBalance', ap.balance - ap.held_amount)),
       l.date
  from legs l join applied ap on ap.id = l.account_id`;

/**
 * A new payment in one statement: its row, then — only when the row went in (its idempotency key was
 * free) — its legs (the rows, balances or holds, and a
 * `transaction.created` event each) and, after their events, `payment.created`. Answers
 * whether the payment went in (false: nothing written).
 */
const BOOK_PAYMENT = `with payment as (${INSERT_PAYMENT}
), ${legsCtes('where exists (select from payment)')}, logged as (
  insert into events (id, type, user_id, payload, created_at)${LEG_EVENTS}
  union all
  select ?::uuid, 'payment.created', ?::uuid, ?::jsonb, ?::timestamptz from payment
)
select count(*)::int as inserted from payment`;

const legValues = (legs: PaymentLeg[]) =>
  JSON.stringify(
    legs.map(({ transaction: t, userId, held, eventId }) => ({
      id: t.id,
      account_id: t.accountId,
      user_id: userId,
      external_txn_id: t.externalTxnId,
      amount: t.amount,
      currency: t.currency,
      date: t.date,
      description: t.description,
      raw: t.raw,
      status: t.status,
      posted_at: t.postedAt,
      merchant: t.merchant,
      category: t.category,
      payment_id: t.paymentId ?? null,
      counterpart_transaction_id: t.counterpartTransactionId ?? null,
      original_amount: t.originalAmount ?? null,
      original_currency: t.originalCurrency ?? null,
      exchange_rate: t.exchangeRate ?? null,
      held,
      event_id: eventId,
      event: t,
    })),
  );

/**
 * Books a new payment, its legs and their events, and its `payment.created` event (`event`), in one
 * statement; false when the user's idempotency key is already taken (nothing written).
 */
export async function bookPayment(
  em: EntityManager,
  p: NewPayment,
  legs: PaymentLeg[],
  event: { id: string; payload: unknown },
): Promise<boolean> {
  const [row] = await em.execute<{ inserted: number }[]>(BOOK_PAYMENT, [
    ...paymentValues(p),
    legValues(legs),
    event.id,
    p.userId,
    JSON.stringify(event.payload),
    p.at.toISOString(),
  ]);
  return row?.inserted === 1;
}

/** Writes one event (a payment's) in the current transaction. */
export async function insertEvent(
  em: EntityManager,
  e: { id: string; type: string; userId: string; payload: unknown; at: Date },
): Promise<void> {
  await em.execute('insert into events (id, type, user_id, payload, created_at) values (?, ?, ?, ?::jsonb, ?::timestamptz)', [
    e.id,
    e.type,
    e.userId,
    JSON.stringify(e.payload),
    e.at.toISOString(),
  ]);
}

/** The payment's leg on its source account (the debit), or undefined. */
export async function selectDebitLeg(em: EntityManager, paymentId: string): Promise<{ id: string; status: string } | undefined> {
  const [row] = await em.execute<{ id: string; status: string }[]>(
    'select id, status from transactions where payment_id = ? and amount < 0 and reversal_of is null',
    [paymentId],
  );
  return row;
}

/** The currency of the user's account, or undefined when it is not theirs. */
export async function selectAccountCurrency(em: EntityManager, userId: string, accountId: string): Promise<string | undefined> {
  const [row] = await em.execute<{ currency: string }[]>('select currency from accounts where id = ? and user_id = ?', [
    accountId,
    userId,
  ]);
  return row?.currency;
}

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An own-account transfer in one currency as ONE autocommitted statement (a named prepared
 * statement), the way a simulated booking is one (simulations/simulation-statement.ts), when it
 * settles at once: both accounts the user's and open, locked in id order; one currency (the one
 * asked for, if any); the source's available balance, read under the lock, covers the amount; the
 * idempotency key free. Then the payment (ACSC at the world's now), both posted legs with their
 * balances and `transaction.created` events, and `payment.created` — all or none. The events' JSON
 * comes built (legsOf, toPayment) with the world's now, the currency and the accounts' names filled
 * in here, where they are known. No row when anything else holds: the caller then takes the
 * general path (a transaction that locks, decides, and records a rejection too).
 */
const TRANSFER = `
with clock as (
  select ${WORLD_NOW_SQL} as now from users u where u.id = ?
), locked as (
  select a.id, a.name, a.currency, a.balance, a.held_amount from accounts a
   where a.user_id = ? and a.id in (?, ?) and a.status = 'open'
   order by a.id for no key update of a
), ok as (
  select clock.now, ${ISO('clock.now')} as at, f.currency, f.name as from_name, t.name as to_name
    from clock, locked f, locked t
   where f.id = ? and t.id = ? and t.currency = f.currency and f.currency = coalesce(?::text, f.currency)
     and f.balance - f.held_amount >= ?
), payment as (
  insert into payments (id, user_id, from_account_id, currency, to_account_id, amount, scheme, status, end_to_end_id,
                        description, accepted_at, settled_at, idempotency_key, request_fingerprint, created_at, updated_at)
  select ?, ?, ?, ok.currency, ?, ?, 'internal', 'ACSC', ?, ?, ok.now, ok.now, ?, ?, ok.now, ok.now from ok
  on conflict (user_id, idempotency_key) where idempotency_key is not null do nothing
  returning id
), legs as (
  select l.*, jsonb_set(l.event->'raw', '{counterparty,name}', to_jsonb(case when l.amount < 0 then ok.to_name else ok.from_name end)) as raw
    from jsonb_to_recordset(?::jsonb) as l(id uuid, account_id uuid, amount bigint, event_id uuid, event jsonb), ok
   where exists (select from payment)
), inserted as (
  insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status, posted_at,
                            category, payment_id, counterpart_transaction_id, created_at)
  select l.id, l.account_id, ?, l.event->>'externalTxnId', l.amount, ok.currency, ok.now, l.event->>'description', l.raw,
         'posted', ok.now, 'transfer', (l.event->>'paymentId')::uuid, (l.event->>'counterpartTransactionId')::uuid, ok.now
    from legs l, ok
), applied as (
  update accounts a set balance = a.balance + l.amount, transaction_count = a.transaction_count + 1
    from legs l where a.id = l.account_id
  returning a.id, a.balance, a.held_amount
), logged as (
  insert into events (id, type, user_id, payload, created_at)
  select l.event_id, 'transaction.created', ?,
         jsonb_build_object('transaction', l.event || jsonb_build_object('date', ok.at, 'postedAt', ok.at, 'currency', ok.currency,
                                                                        'raw', l.raw),
                            'balances', jsonb_build_object('balance', ap.balance, 'availableBalance', ap.balance - ap.held_amount)),
         ok.now
    from legs l join applied ap on ap.id = l.account_id, ok
  union all
  select ?::uuid, 'payment.created', ?::uuid,
         jsonb_build_object('payment', ?::jsonb || jsonb_build_object('currency', ok.currency, 'acceptedAt', ok.at, 'settledAt', ok.at,
                                                                    'createdAt', ok.at)),
         ok.now
    from payment, ok
)
select ok.now, ok.currency, ok.from_name, ok.to_name from ok, payment`;

const TRANSFER_STATEMENT = { name: 'sandbank_transfer_v1', sql: TRANSFER };

export interface FastTransfer {
  userId: string;
  id: string;
  fromAccountId: string;
  toAccountId: string;
  /** The currency asked for; null: the accounts' (both must have it). */
  currency: string | null;
  amount: number;
  endToEndId: string;
  description: string;
  idempotencyKey: string | null;
  requestFingerprint: string;
  /** Both legs (debit first) as their events show them; the date, currency and names are filled in. */
  legs: { id: string; accountId: string; amount: number; eventId: string; event: Transaction }[];
  paymentEventId: string;
  /** The payment as its event shows it; currency and instants filled in. */
  payment: unknown;
}

/** The transfer's statement; the world's now, the currency and both names when it was booked, else undefined. */
export async function bookFastTransfer(
  em: EntityManager,
  t: FastTransfer,
): Promise<{ now: Date | string; currency: string; from_name: string; to_name: string } | undefined> {
  const [row] = await executeHot<{ now: Date | string; currency: string; from_name: string; to_name: string }>(
    em,
    TRANSFER_STATEMENT,
    [
      t.userId,
      t.userId,
      t.fromAccountId,
      t.toAccountId,
      t.fromAccountId,
      t.toAccountId,
      t.currency,
      t.amount,
      t.id,
      t.userId,
      t.fromAccountId,
      t.toAccountId,
      t.amount,
      t.endToEndId,
      t.description,
      t.idempotencyKey,
      t.requestFingerprint,
      JSON.stringify(
        t.legs.map((leg) => ({
          id: leg.id,
          account_id: leg.accountId,
          amount: leg.amount,
          event_id: leg.eventId,
          event: leg.event,
        })),
      ),
      t.userId,
      t.userId,
      t.paymentEventId,
      t.userId,
      JSON.stringify(t.payment),
    ],
  );
  return row;
}

// ── A clearing session's batch, set-wise (session-batch.ts) ─────────────────────────────────────
// Three statements per batch whatever its size: the due payments locked (id order), the debits of those
// that settle locked with their accounts, then one statement that writes every step of the batch.

/** The user's payments among `paymentIds` still due by `until`, locked FOR UPDATE in id order. */
export async function lockDuePayments(
  em: EntityManager,
  { userId, paymentIds, until }: { userId: string; paymentIds: string[]; until: Date },
): Promise<PaymentRow[]> {
  return em.execute<PaymentRow[]>(
    `select ${PAYMENT_COLUMNS} from payments p
      where p.user_id = ? and p.id in (select value::uuid from jsonb_array_elements_text(?::jsonb))
        and p.due_at <= ?::timestamptz
      order by p.id for update of p`,
    [userId, JSON.stringify(paymentIds), until.toISOString()],
  );
}

/** A payment's debit leg, locked with its account (the balances a transition reads). */
export type LockedDebitRow = TransactionRow & {
  account_status: 'open' | 'closed';
  balance: string;
  held_amount: string;
};

/** The debit legs of these payments, locked FOR UPDATE (id order) with their accounts FOR NO KEY UPDATE. */
export async function lockDebitLegs(em: EntityManager, userId: string, paymentIds: string[]): Promise<LockedDebitRow[]> {
  return em.execute<LockedDebitRow[]>(
    `select ${TRANSACTION_COLUMNS.split(', ')
      .map((column) => `t.${column}`)
      .join(', ')}, a.status as account_status, a.balance, a.held_amount
       from transactions t join accounts a on a.id = t.account_id
      where t.user_id = ? and t.payment_id in (select value::uuid from jsonb_array_elements_text(?::jsonb))
        and t.amount < 0 and t.reversal_of is null
      order by t.id for update of t for no key update of a`,
    [userId, JSON.stringify(paymentIds)],
  );
}

/** These accounts' balances and holds (locked already by the caller's transaction). */
export async function selectAccountBalances(
  em: EntityManager,
  accountIds: string[],
): Promise<{ id: string; balance: string; held_amount: string }[]> {
  if (accountIds.length === 0) return [];
  return em.execute<{ id: string; balance: string; held_amount: string }[]>(
    'select id, balance, held_amount from accounts where id in (select value::uuid from jsonb_array_elements_text(?::jsonb))',
    [JSON.stringify(accountIds)],
  );
}

/** One payment's step in a batch: its new status and due time, and (when it settles) the debit that posts. */
export interface SessionStep {
  paymentId: string;
  status: string;
  /** When the step takes effect (the payment's due instant). */
  at: string;
  dueAt: string | null;
  /** Set when the step settles it (else the payment keeps its settledAt). */
  settledAt: string | null;
  /** The pending debit this step posts (its hold released), or null. */
  debit: { id: string; accountId: string; amount: number } | null;
}

/** An event a batch writes, in the batch's order. */
export interface SessionEvent {
  id: string;
  type: 'transaction.updated' | 'payment.updated';
  payload: unknown;
  at: string;
}

// Every step of the batch in one statement: the debits posted (each account's balance and hold moved
// once, by the sum of its debits), the payments moved, and the events in the batch's order.
const WRITE_SESSION_STEPS = `
with steps as (
  select * from jsonb_to_recordset(?::jsonb)
    as s(payment_id uuid, status text, at timestamptz, due_at timestamptz, settled_at timestamptz, debit_id uuid,
         account_id uuid, amount bigint)
), posted as (
  update transactions t
     set status = 'posted', posted_at = s.at, version = t.version + 1, posted_from_pending = true,
         settle_at = null, expire_at = null, updated_at = now()
    from steps s
   where t.id = s.debit_id and t.status = 'pending' and t.amount = s.amount
  returning t.id
), deltas as (
  select account_id, sum(amount) as amount from steps where debit_id is not null group by account_id
), applied as (
  update accounts a set balance = a.balance + d.amount, held_amount = a.held_amount + d.amount
    from deltas d where a.id = d.account_id
  returning a.id
), moved as (
  update payments p
     set status = s.status, due_at = s.due_at, settled_at = coalesce(s.settled_at, p.settled_at), updated_at = s.at
    from steps s where p.id = s.payment_id
  returning p.id
), logged as (
  insert into events (id, type, user_id, payload, created_at)
  select e.id, e.type, ?::uuid, e.payload, e.at
    from jsonb_to_recordset(?::jsonb) as e(ord int, id uuid, type text, payload jsonb, at timestamptz)
   order by e.ord
  returning 1
)
select (select count(*) from posted)::int as posted, (select count(*) from applied)::int as accounts,
       (select count(*) from moved)::int as moved, (select count(*) from logged)::int as logged`;

/** Writes a batch's steps and events in one statement; answers how many rows of each it wrote. */
export async function writeSessionSteps(
  em: EntityManager,
  { userId, steps, events }: { userId: string; steps: SessionStep[]; events: SessionEvent[] },
): Promise<{ posted: number; accounts: number; moved: number; logged: number }> {
  const [row] = await em.execute<{ posted: number; accounts: number; moved: number; logged: number }[]>(WRITE_SESSION_STEPS, [
    JSON.stringify(
      steps.map((s) => ({
        payment_id: s.paymentId,
        status: s.status,
        at: s.at,
        due_at: s.dueAt,
        settled_at: s.settledAt,
        debit_id: s.debit?.id ?? null,
        account_id: s.debit?.accountId ?? null,
        amount: s.debit?.amount ?? null,
      })),
    ),
    userId,
    JSON.stringify(events.map((e, ord) => ({ ord, id: e.id, type: e.type, payload: e.payload, at: e.at }))),
  ]);
  if (!row) throw new Error('the session batch statement answered nothing');
  return row;
}
