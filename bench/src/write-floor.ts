/**
 * The write floor for own-account transfers (issue 42): node:http + pg + jose doing what
 * `POST /v1/payments` between two accounts of one user does in the database, written by hand the
 * way ../shared/bench-floor writes a booking — the bearer's JWT checked (once per token, as
 * Sandbank caches it), then one autocommitted statement (one database transaction): both accounts locked in id order with
 * the owner, status and funds checked under the lock, the payment row, the two transactions, the
 * two balance and counter updates, the two `transaction.created` events with the balances after
 * them and the `payment.created` event — and the same Payment as the answer. No framework, no
 * validation beyond the funds, no logging, no metrics. It runs on Sandbank's own database and
 * schema (like read-floor.ts), so the rows, indexes and triggers written are the same.
 * It answers `GET /readyz`, `POST /v1/payments` with `to: { accountId }` only, and, as the calibration
 * beside it, `POST /v1/simulations/transaction` with a plain amount: ../shared/bench-floor's `same`
 * booking statement on Sandbank's schema (so transfers and bookings are each a ratio to a floor of
 * the same server, tables and machine). With `originalAmount` + `originalCurrency` instead of `amount` (issue 41), the
 * converting floor: the same booking statement, which also reads the rate (the world's pin of the pair on the
 * Warsaw day, else a generated rate the server keeps per day and pair) and converts in it (rate × (1 ∓ the
 * account's margin), rounded half away from zero), keeping the original amount, currency and rate on the row and
 * the event: the work a converted booking adds, in the same one round trip.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { jwtVerify } from 'jose';
import pg from 'pg';

// Sandbank's session settings (packages/db/src/orm.ts): generic plans, UTC.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  options: '-c plan_cache_mode=force_generic_plan -c TimeZone=UTC',
});
const secret = new TextEncoder().encode(process.env.JWT_SECRET);
const verified = new Map<string, string>();

// $1 user, $2 from, $3 to, $4 amount, $5 payment id, $6 debit id, $7 credit id, $8 description,
// $9 at, $10 end-to-end id, $11..$13 event ids, $14 debit (jsonb), $15 credit (jsonb), $16 payment (jsonb).
const TRANSFER = {
  name: 'write-floor-transfer',
  text: `with locked as (
    select id, balance, held_amount from accounts where user_id = $1 and id in ($2, $3) and status = 'open'
      order by id for no key update),
  ok as (select 1 from locked where id = $2 and balance - held_amount >= $4 and (select count(*) from locked) = 2),
  payment as (
    insert into payments (id, user_id, from_account_id, currency, to_account_id, amount, scheme, status, end_to_end_id,
                          description, accepted_at, settled_at, request_fingerprint, created_at, updated_at)
    select $5, $1, $2, 'PLN', $3, $4, 'internal', 'ACSC', $10, $8, $9, $9, '', $9, $9 from ok returning id),
  legs as (
    select * from (values ($6::uuid, $2::uuid, -$4::bigint, $14::jsonb, $11::uuid), ($7, $3, $4, $15, $12)) l(id, account_id, amount, event, event_id)
      where exists (select from payment)),
  inserted as (
    insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status, posted_at,
                              category, payment_id, counterpart_transaction_id, created_at)
    select l.id, l.account_id, $1, 'pay_' || $5, l.amount, 'PLN', $9, $8, l.event->'raw', 'posted', $9, 'transfer', $5,
           case when l.id = $6 then $7::uuid else $6::uuid end, $9
      from legs l),
  applied as (
    update accounts a set balance = a.balance + l.amount, transaction_count = a.transaction_count + 1
      from legs l where a.id = l.account_id returning a.id, a.balance, a.held_amount),
  events as (
    insert into events (id, type, user_id, payload, created_at)
    select l.event_id, 'transaction.created', $1,
           jsonb_build_object('transaction', l.event,
                              'balances', jsonb_build_object('balance', ap.balance, 'availableBalance', ap.balance - ap.held_amount)), $9
      from legs l join applied ap on ap.id = l.account_id
    union all select $13, 'payment.created', $1, $16::jsonb, $9 from payment)
  select count(*) as n from legs`,
};

// $1 amount, $2 account, $3 id, $4 external id, $5 description, $6 user, $7 event id, $8 event (jsonb), $9 at.
const BOOKING = {
  name: 'write-floor-booking',
  text: `with acct as (
    select id, user_id, balance, held_amount from accounts
     where id = $2 and user_id = $6 and status = 'open' and balance + $1 between held_amount and 1000000000000000
     for no key update),
  inserted as (
    insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status, posted_at, created_at)
    select $3, acct.id, acct.user_id, $4, $1, 'PLN', $9, $5, '{"source":"sandbank-simulator"}', 'posted', $9, $9 from acct
    on conflict (account_id, external_txn_id) do nothing
    returning id, account_id, amount),
  applied as (
    update accounts set balance = accounts.balance + inserted.amount, transaction_count = accounts.transaction_count + 1
      from inserted where accounts.id = inserted.account_id returning accounts.balance, accounts.held_amount),
  event as (
    insert into events (id, type, user_id, payload, created_at)
    select $7, 'transaction.created', $6,
           jsonb_build_object('transaction', $8::jsonb,
                              'balances', jsonb_build_object('balance', applied.balance, 'availableBalance', applied.balance - applied.held_amount)),
           $9
      from inserted, applied)
  select applied.balance, applied.held_amount from applied`,
};

interface BookingBody {
  accountId: string;
  amount: number;
  originalAmount?: number;
  originalCurrency?: string;
  description?: string;
}

// $1 original amount, $2 account, $3 id, $4 external id, $5 description, $6 user, $7 event id, $8 event (jsonb),
// $9 at, $10 original currency, $11 generated rate, $12 minor-unit shift.
const CONVERTED_BOOKING = {
  name: 'write-floor-converted-booking',
  text: `with world as (
    select coalesce((select p.rate from fx_rate_pins p
                      where p.user_id = $6 and p.day = ($9::timestamptz at time zone 'Europe/Warsaw')::date
                        and p.base = $10 and p.quote = 'PLN'), $11::numeric) as rate),
  acct as (
    select a.id, a.user_id, x.rate, round($1::numeric * x.rate * 10 ^ $12::integer)::bigint as amount
      from accounts a, world, lateral (select world.rate * (1 - sign($1::numeric) * a.card_fx_margin) as rate) x
     where a.id = $2 and a.user_id = $6 and a.status = 'open' and a.currency = 'PLN'
       and a.balance + round($1::numeric * x.rate * 10 ^ $12::integer) between a.held_amount and 1000000000000000
     for no key update of a),
  inserted as (
    insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, status, posted_at, created_at,
                              original_amount, original_currency, exchange_rate)
    select $3, acct.id, acct.user_id, $4, acct.amount, 'PLN', $9, $5, '{"source":"sandbank-simulator"}', 'posted', $9, $9,
           $1, $10, acct.rate from acct
    on conflict (account_id, external_txn_id) do nothing
    returning id, account_id, amount, exchange_rate::text as exchange_rate),
  applied as (
    update accounts set balance = accounts.balance + inserted.amount, transaction_count = accounts.transaction_count + 1
      from inserted where accounts.id = inserted.account_id returning accounts.balance, accounts.held_amount),
  event as (
    insert into events (id, type, user_id, payload, created_at)
    select $7, 'transaction.created', $6,
           jsonb_build_object('transaction', $8::jsonb || jsonb_build_object('amount', inserted.amount, 'exchangeRate', inserted.exchange_rate),
                              'balances', jsonb_build_object('balance', applied.balance, 'availableBalance', applied.balance - applied.held_amount)),
           $9
      from inserted, applied)
  select inserted.amount, inserted.exchange_rate, applied.balance, applied.held_amount from inserted, applied`,
};

/** The floor's generated rates: PLN per 1 unit, by currency (a fixed table; a pin of the day wins in the statement). */
const GENERATED: Record<string, string> = { EUR: '4.3', USD: '4', GBP: '5.1', CHF: '4.6' };

async function bookConverted(userId: string, body: BookingBody): Promise<[number, unknown]> {
  const id = randomUUID();
  const at = new Date().toISOString();
  const originalCurrency = body.originalCurrency ?? '';
  const generated = GENERATED[originalCurrency];
  if (!generated) return [400, { code: 'VALIDATION_ERROR' }];
  const transaction = {
    id,
    externalTxnId: `sim_${randomUUID()}`,
    accountId: body.accountId,
    currency: 'PLN',
    date: at,
    description: body.description ?? '',
    raw: { source: 'sandbank-simulator' },
    status: 'posted',
    postedAt: at,
    version: 1,
    merchant: null,
    category: null,
    reversalOf: null,
    originalAmount: body.originalAmount,
    originalCurrency,
  };
  const { rows } = await pool.query({
    ...CONVERTED_BOOKING,
    values: [
      body.originalAmount,
      body.accountId,
      id,
      transaction.externalTxnId,
      transaction.description,
      userId,
      randomUUID(),
      JSON.stringify(transaction),
      at,
      originalCurrency,
      generated,
      0,
    ],
  });
  const [row] = rows;
  if (!row) return [422, { code: 'INSUFFICIENT_FUNDS' }];
  const balance = Number(row.balance);
  return [
    201,
    {
      data: {
        transaction: { ...transaction, amount: Number(row.amount), exchangeRate: row.exchange_rate },
        balance,
        availableBalance: balance - Number(row.held_amount),
      },
    },
  ];
}

async function book(userId: string, body: BookingBody): Promise<[number, unknown]> {
  if (body.originalAmount !== undefined) return bookConverted(userId, body);
  const id = randomUUID();
  const at = new Date().toISOString();
  const transaction = {
    id,
    externalTxnId: `sim_${randomUUID()}`,
    accountId: body.accountId,
    amount: body.amount,
    currency: 'PLN',
    date: at,
    description: body.description ?? '',
    raw: { source: 'sandbank-simulator' },
    status: 'posted',
    postedAt: at,
    version: 1,
    merchant: null,
    category: null,
    reversalOf: null,
  };
  const { rows } = await pool.query({
    ...BOOKING,
    values: [
      body.amount,
      body.accountId,
      id,
      transaction.externalTxnId,
      transaction.description,
      userId,
      randomUUID(),
      JSON.stringify(transaction),
      at,
    ],
  });
  const [row] = rows;
  if (!row) return [422, { code: 'INSUFFICIENT_FUNDS' }];
  const balance = Number(row.balance);
  return [201, { data: { transaction, balance, availableBalance: balance - Number(row.held_amount) } }];
}

async function userOf(authorization: string | undefined): Promise<string | null> {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
  const hit = verified.get(token);
  if (hit) return hit;
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string') return null;
    verified.set(token, payload.sub);
    return payload.sub;
  } catch {
    return null;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

interface TransferBody {
  fromAccountId: string;
  to: { accountId: string };
  amount: number;
  description?: string;
}

async function transfer(userId: string, body: TransferBody): Promise<[number, unknown]> {
  const id = randomUUID();
  const debitId = randomUUID();
  const creditId = randomUUID();
  const at = new Date().toISOString();
  const endToEndId = `SB${id.replaceAll('-', '')}`;
  const description = body.description ?? '';
  const leg = (legId: string, accountId: string, amount: number, counterpart: string) => ({
    id: legId,
    accountId,
    externalTxnId: `pay_${id}`,
    amount,
    currency: 'PLN',
    date: at,
    description,
    raw: { source: 'sandbank-payment', paymentId: id, scheme: 'internal', endToEndId },
    status: 'posted',
    postedAt: at,
    version: 1,
    merchant: null,
    category: 'transfer',
    reversalOf: null,
    paymentId: id,
    counterpartTransactionId: counterpart,
  });
  const debit = leg(debitId, body.fromAccountId, -body.amount, creditId);
  const credit = leg(creditId, body.to.accountId, body.amount, debitId);
  const payment = {
    id,
    fromAccountId: body.fromAccountId,
    to: { accountId: body.to.accountId },
    amount: body.amount,
    currency: 'PLN',
    scheme: 'internal',
    status: 'ACSC',
    statusReason: null,
    endToEndId,
    description,
    requestedExecutionDate: null,
    acceptedAt: at,
    settledAt: at,
    returned: null,
    transactionIds: [debitId, creditId],
    createdAt: at,
  };
  // One statement, autocommitted: one database transaction, as the booking floor does it.
  const { rows } = await pool.query({
    ...TRANSFER,
    values: [
      userId,
      body.fromAccountId,
      body.to.accountId,
      body.amount,
      id,
      debitId,
      creditId,
      description,
      at,
      endToEndId,
      randomUUID(),
      randomUUID(),
      randomUUID(),
      JSON.stringify(debit),
      JSON.stringify(credit),
      JSON.stringify({ payment }),
    ],
  });
  if (Number(rows[0]?.n ?? 0) !== 2) return [422, { code: 'REJECTED' }];
  return [201, payment];
}

const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => {
    raw += chunk;
  });
  req.on('end', async () => {
    try {
      if (req.url === '/readyz') return send(res, 200, { status: 'ok' });
      const route = req.method === 'POST' ? req.url : undefined;
      if (route !== '/v1/payments' && route !== '/v1/simulations/transaction') return send(res, 404, { code: 'NOT_FOUND' });
      const userId = await userOf(req.headers.authorization);
      if (!userId) return send(res, 401, { code: 'UNAUTHENTICATED' });
      const [status, body] =
        route === '/v1/payments'
          ? await transfer(userId, JSON.parse(raw) as TransferBody)
          : await book(userId, JSON.parse(raw) as BookingBody);
      send(res, status, body);
    } catch (error) {
      send(res, 500, { code: 'INTERNAL', message: String(error) });
    }
  });
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
const stop = () => {
  server.close(() => void pool.end());
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
