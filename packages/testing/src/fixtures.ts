/**
 * The one set of test fixtures, for every package's tests and the bench:
 * - over HTTP, through the public API (`openAccount`, `simulate`): what a client would do;
 * - in SQL (`insertAccount`, `insertTransaction`, `insertTransactionEvent`): exact dates and states
 *   the endpoints cannot produce on demand (day edges, closed accounts, events without a request).
 * The transaction INSERT lives here once; the SQL writers keep the ledger's invariants (balance
 * and transaction count follow the rows) unless a test asks for history alone.
 */
import { v7 as uuidv7 } from 'uuid';

/**
 * A body or a row the test reads loosely (`res.body.data.id`, `rows[0].balance`): the one `any` of
 * the test code. A test that reads a resource names its type (apps/api's `call<Output[...]>`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the one loose default; typed reads pass their type
export type Loose = any;

export interface Queryable {
  query<R extends object = Loose>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** The HTTP side of a running test app (apps/api's startTestApp, the worker tests' stack). */
export interface HttpCaller {
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string },
  ): Promise<{ status: number; body: Loose; headers: Headers }>;
}

/** Whoever calls: a test user with a live access token. */
export interface Caller {
  accessToken: string;
}

export interface SimulationBody {
  accountId: string;
  amount: number;
  description?: string;
  externalTxnId?: string;
  date?: string;
  currency?: string;
  [field: string]: unknown;
}

/** Opens an account through the API; returns its id (throws unless 201). */
export async function openAccount(api: HttpCaller, user: Caller, name = `Account ${uuidv7()}`): Promise<string> {
  const res = await api.call('POST', '/v1/accounts', { token: user.accessToken, body: { name } });
  if (res.status !== 201) throw new Error(`opening an account answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** One simulation through the API, answered as it came (status and body). */
export const simulate = (api: HttpCaller, user: Caller, body: SimulationBody) =>
  api.call('POST', '/v1/simulations/transaction', { token: user.accessToken, body });

export async function insertAccount(
  db: Queryable,
  userId: string,
  options: { name?: string; closed?: boolean } = {},
): Promise<string> {
  const id = uuidv7();
  await db.query(
    `insert into accounts (id, user_id, name, status, closed_at) values ($1, $2, $3, $4, ${options.closed ? 'now()' : 'null'})`,
    [id, userId, options.name ?? `Account ${id.slice(-6)}`, options.closed ? 'closed' : 'open'],
  );
  return id;
}

/** A posted transaction as the API shows it. */
export interface FixtureTransaction {
  id: string;
  externalTxnId: string;
  accountId: string;
  amount: number;
  currency: 'PLN';
  date: string;
  description: string;
  raw: { source: string };
  status: 'posted';
  postedAt: string;
  version: 1;
  merchant: null;
  category: null;
  reversalOf: null;
}

export interface TransactionFixtureOptions {
  accountId: string;
  amount?: number;
  date?: string | Date;
  description?: string;
  /** Also add the amount to the balance (default true); false books history rows only. */
  moveBalance?: boolean;
}

/**
 * The transaction INSERT, as a data-modifying CTE named `txn` over `account` (locked, updated):
 * `$1` account id, `$2` amount, `$3` transaction id, `$4` externalTxnId, `$5` date, `$6` description.
 */
const INSERT_TRANSACTION = (moveBalance: boolean) => `
  with account as (
    update accounts set transaction_count = transaction_count + 1${moveBalance ? ', balance = balance + $2' : ''}
     where id = $1 returning id, user_id
  ), txn as (
    insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, posted_at)
    select $3, id, user_id, $4, $2, 'PLN', $5, $6, '{"source":"sandbank-simulator"}', $5 from account
    returning id, user_id, created_at
  )`;

function fixtureTransaction(options: TransactionFixtureOptions): FixtureTransaction {
  const id = uuidv7();
  const date = new Date(options.date ?? Date.now()).toISOString();
  return {
    id,
    externalTxnId: `ext-${id}`,
    accountId: options.accountId,
    amount: options.amount ?? 1000,
    currency: 'PLN',
    date,
    description: options.description ?? 'Test transaction',
    raw: { source: 'sandbank-simulator' },
    status: 'posted',
    postedAt: date,
    version: 1,
    merchant: null,
    category: null,
    reversalOf: null,
  };
}

const params = (t: FixtureTransaction) => [t.accountId, t.amount, t.id, t.externalTxnId, t.date, t.description];

/** One committed transaction row (no event); returns it as the API shows it. */
export async function insertTransaction(db: Queryable, options: TransactionFixtureOptions): Promise<FixtureTransaction> {
  const transaction = fixtureTransaction(options);
  const { rows } = await db.query(`${INSERT_TRANSACTION(options.moveBalance ?? true)} select id from txn`, params(transaction));
  if (rows.length === 0) throw new Error(`no account ${options.accountId}, or the balance would go below zero`);
  return transaction;
}

/** One committed transaction and its `transaction.created` event, as the simulation writes them. */
export async function insertTransactionEvent(
  db: Queryable,
  options: TransactionFixtureOptions,
): Promise<{ eventId: string; transaction: FixtureTransaction; createdAt: string }> {
  const transaction = fixtureTransaction(options);
  const eventId = uuidv7();
  const { rows } = await db.query<{ created_at: Date | string }>(
    `${INSERT_TRANSACTION(options.moveBalance ?? true)}
     insert into events (id, type, user_id, payload)
     select $7, 'transaction.created', user_id, $8 from txn
     returning created_at`,
    [...params(transaction), eventId, JSON.stringify({ transaction })],
  );
  const [row] = rows;
  if (!row) throw new Error(`no account ${options.accountId}, or the balance would go below zero`);
  return { eventId, transaction, createdAt: new Date(row.created_at).toISOString() };
}
