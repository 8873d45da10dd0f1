/**
 * What `GET /simplefin/accounts` (docs/faces/simplefin.md) reads: a user's accounts, each with its
 * balances and its transactions in the window [start-date, end-date) on the transaction's date,
 * from the same domain code as the pull endpoint (`readTransactionPage`), as of the world's clock.
 * The face (apps/api/src/faces/simplefin/mapping.ts) turns it into SimpleFIN's Account Set.
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { readClock } from '../clock/clock.ts';
import { readTransactionPage } from '../transactions/list-transactions.ts';
import { selectUserAccounts } from './queries.ts';

/**
 * Per account and request: far more than a client's usual 90-day window. An account whose window
 * holds more lists its newest this many and says so in the body's errors (`act.missingdata` in
 * 2.0), so a client never takes a cut listing for the whole one.
 */
export const MAX_TRANSACTIONS_PER_ACCOUNT = 10_000;

export interface AccountSetQuery {
  userId: string;
  /** The window on the transaction's date: `start-date` (inclusive) and `end-date` (exclusive). */
  from?: Date | undefined;
  before?: Date | undefined;
  pending: boolean;
  /** Only these account ids (others, and other users' ids, are left out). */
  accountIds?: string[] | undefined;
  balancesOnly: boolean;
}

/** One account of the set, in the domain's terms (minor units, instants); the face maps it to the wire. */
interface AccountSetEntry {
  id: string;
  name: string;
  currency: string;
  /** The posted balance, in minor units. */
  balance: bigint;
  /** The posted balance less held pending debits, in minor units. */
  available: bigint;
  /** In the window, oldest first; empty when balances only. */
  transactions: Transaction[];
  /** True when the window held more than MAX_TRANSACTIONS_PER_ACCOUNT: only the newest are listed. */
  truncated: boolean;
}

export interface AccountSet {
  /** The world's now: the balances are as of it. */
  now: Date;
  accounts: AccountSetEntry[];
}

export async function readAccountSet(em: EntityManager, query: AccountSetQuery): Promise<AccountSet> {
  const { now } = await readClock(em, query.userId);
  const rows = await selectUserAccounts(em, query.userId);
  const wanted = query.accountIds && query.accountIds.length > 0 ? new Set(query.accountIds) : null;
  const accounts: AccountSetEntry[] = [];
  for (const account of rows) {
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
    const truncated = items.length > MAX_TRANSACTIONS_PER_ACCOUNT;
    if (truncated) items.length = MAX_TRANSACTIONS_PER_ACCOUNT; // newest first: the oldest one goes
    const balance = BigInt(account.balance);
    accounts.push({
      id: account.id,
      name: account.name,
      currency: account.currency,
      balance,
      available: balance - BigInt(account.held_amount),
      // Ordered by posting, oldest first, as the protocol lists them.
      transactions: items.reverse(),
      truncated,
    });
  }
  return { now, accounts };
}
