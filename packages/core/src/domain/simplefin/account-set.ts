/**
 * `GET /simplefin/accounts` (docs/faces/simplefin.md): a user's accounts and transactions as a SimpleFIN Account
 * Set, protocol 1.0 by default and 2.0 with `version=2`. The transactions come from the same
 * domain code as the pull endpoint (`readTransactionPage`), per account, in the window
 * [start-date, end-date) on the transaction's date.
 *
 * What clients rely on (Actual Budget's sync server, read for this): `errors` present as an array
 * (1.0); `org.name`; a `transactions` and a `holdings` array on every account (empty with
 * balances-only); money as a decimal string with exactly two decimals (Actual removes the point
 * and reads grosze); `transacted_at` on every transaction; `posted: 0` while pending; the `id`
 * unchanged from pending to posted (it de-duplicates by it). Times are Unix seconds; balances are
 * as of the world's clock.
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { readClock } from '../clock/clock.ts';
import { readTransactionPage } from '../transactions/list-transactions.ts';

/**
 * Per account and request: far more than a client's usual 90-day window. An account whose window
 * holds more lists its newest this many and says so in the body's errors (`act.missingdata` in
 * 2.0), so a client never takes a cut listing for the whole one.
 */
const MAX_TRANSACTIONS_PER_ACCOUNT = 10_000;

export interface AccountSetQuery {
  userId: string;
  /** The window on the transaction's date: `start-date` (inclusive) and `end-date` (exclusive). */
  from?: Date | undefined;
  before?: Date | undefined;
  pending: boolean;
  /** Only these account ids (others, and other users' ids, are left out). */
  accountIds?: string[] | undefined;
  balancesOnly: boolean;
  version: 1 | 2;
  /** The server's public origin, for `sfin-url`. */
  publicUrl: string;
}

/**
 * Minor units → a decimal string with exactly two decimals (`-0.05`, `1234.50`). Integer arithmetic
 * on bigint, so every size is exact (balances reach 10^15 minor units); clients such as Actual read
 * the result by removing the point.
 */
function formatMoney(minor: bigint | number | string): string {
  const value = BigInt(minor);
  const abs = value < 0n ? -value : value;
  return `${value < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function toSimplefinTransaction(transaction: Transaction) {
  return {
    id: transaction.id,
    posted: transaction.postedAt ? unix(transaction.postedAt) : 0,
    amount: formatMoney(transaction.amount),
    description: transaction.description,
    payee: transaction.merchant ?? transaction.description,
    memo: '',
    transacted_at: unix(transaction.date),
    pending: transaction.status === 'pending',
  };
}

interface AccountRow {
  id: string;
  name: string;
  currency: string;
  balance: string;
  held_amount: string;
}

export async function buildAccountSet(em: EntityManager, query: AccountSetQuery): Promise<Record<string, unknown>> {
  const { now } = await readClock(em, query.userId);
  const accounts = await em.execute<AccountRow[]>(
    'select id, name, currency, balance, held_amount from accounts where user_id = ? order by created_at, id',
    [query.userId],
  );
  const wanted = query.accountIds && query.accountIds.length > 0 ? new Set(query.accountIds) : null;
  const origin = query.publicUrl.replace(/\/$/, '');
  const host = new URL(origin).host;
  const connId = `CON-${query.userId}`;
  const out = [];
  const truncated: { id: string; name: string }[] = [];
  for (const account of accounts) {
    if (wanted && !wanted.has(account.id)) continue;
    const page = query.balancesOnly
      ? null
      : await readTransactionPage(em, {
          scope: { userId: query.userId, accountId: account.id },
          range: {
            ...(query.from ? { from: query.from } : {}),
            ...(query.before ? { before: query.before } : {}),
          },
          page: 1,
          limit: MAX_TRANSACTIONS_PER_ACCOUNT + 1, // one more tells whether the window holds more
          status: query.pending ? undefined : 'posted',
          total: 'none',
        });
    const items = page?.items ?? [];
    if (items.length > MAX_TRANSACTIONS_PER_ACCOUNT) {
      items.length = MAX_TRANSACTIONS_PER_ACCOUNT; // newest first: the oldest one goes
      truncated.push({ id: account.id, name: account.name });
    }
    // Ordered by posting, oldest first, as the protocol lists them.
    const transactions = items.reverse().map(toSimplefinTransaction);
    const balance = BigInt(account.balance);
    const common = {
      id: account.id,
      name: account.name,
      currency: account.currency,
      balance: formatMoney(balance),
      'available-balance': formatMoney(balance - BigInt(account.held_amount)),
      'balance-date': Math.floor(now.getTime() / 1000),
      transactions,
      holdings: [],
    };
    out.push(
      query.version === 2
        ? { ...common, conn_id: connId }
        : { org: { domain: host, 'sfin-url': `${origin}/simplefin`, name: 'Sandbank', id: 'sandbank' }, ...common },
    );
  }
  const missing = (name: string) =>
    `${name}: only the newest ${MAX_TRANSACTIONS_PER_ACCOUNT.toLocaleString('en')} transactions of this window are listed; ask with an earlier end-date for the rest`;
  if (query.version === 2) {
    return {
      errlist: truncated.map(({ id, name }) => ({ code: 'act.missingdata', msg: missing(name), account_id: id })),
      connections: [{ conn_id: connId, name: 'Sandbank', org_id: 'sandbank', org_url: origin, sfin_url: `${origin}/simplefin` }],
      accounts: out,
    };
  }
  return { errors: truncated.map(({ name }) => missing(name)), accounts: out };
}
