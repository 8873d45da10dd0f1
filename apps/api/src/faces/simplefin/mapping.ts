/**
 * The one mapping between the world and SimpleFIN's wire format (docs/faces/simplefin.md), each
 * conversion once:
 * - money: integer minor units → a decimal string with the places of the account's currency
 *   (ISO 4217 exponent: `-0.05` PLN, `1234` JPY, `0.005` KWD), on bigint, so every size is exact
 *   (balances reach 10^15 minor units); clients such as Actual read it by removing the point;
 * - times: instants → Unix seconds (`posted` 0 while pending; `balance-date` is the world's now);
 * - ids: the Sandbank ids, which never change, so a transaction keeps its id from pending to posted
 *   (Actual de-duplicates by it);
 * - the account's IBAN and BIC (docs/concepts/faces.md#iban-and-bic): the protocol has no field for
 *   them, so they go in the account's `extra`, the object it leaves to the server;
 * - the Account Set: protocol 1.0 (`errors`, `org` on every account) or 2.0 (`errlist`,
 *   `connections`, `conn_id`); `transactions` and `holdings` on every account, empty with
 *   balances-only.
 */
import { type AccountSet, ibanOf, MAX_TRANSACTIONS_PER_ACCOUNT, minorToDecimal, SANDBANK_BIC } from '@sandbank/core';
import type { Transaction } from '@sandbank/schemas';

/** Minor units → a decimal string with the currency's places (PLN `-0.05`, JPY `7`, KWD `0.005`). */
export const formatMoney = (minor: bigint | number | string, currency: string): string => minorToDecimal(BigInt(minor), currency);

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export function toSimplefinTransaction(transaction: Transaction) {
  return {
    id: transaction.id,
    posted: transaction.postedAt ? unix(transaction.postedAt) : 0,
    amount: formatMoney(transaction.amount, transaction.currency),
    description: transaction.description,
    payee: transaction.merchant ?? transaction.description,
    memo: '',
    transacted_at: unix(transaction.date),
    pending: transaction.status === 'pending',
  };
}

function toSimplefinAccount(account: AccountSet['accounts'][number], now: Date) {
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    balance: formatMoney(account.balance, account.currency),
    'available-balance': formatMoney(account.available, account.currency),
    'balance-date': Math.floor(now.getTime() / 1000),
    transactions: account.transactions.map(toSimplefinTransaction),
    holdings: [],
    extra: { iban: ibanOf(account.id), bic: SANDBANK_BIC },
  };
}

const missing = (name: string) =>
  `${name}: only the newest ${MAX_TRANSACTIONS_PER_ACCOUNT.toLocaleString('en')} transactions of this window are listed; ask with an earlier end-date for the rest`;

/** The Account Set of `version` for the user whose connection this is; `publicUrl` is the server's public origin. */
export function toAccountSet(set: AccountSet, options: { userId: string; version: 1 | 2; publicUrl: string }) {
  const origin = options.publicUrl.replace(/\/$/, '');
  const truncated = set.accounts.filter((account) => account.truncated);
  if (options.version === 2) {
    const connId = `CON-${options.userId}`;
    return {
      errlist: truncated.map(({ id, name }) => ({ code: 'act.missingdata', msg: missing(name), account_id: id })),
      connections: [{ conn_id: connId, name: 'Sandbank', org_id: 'sandbank', org_url: origin, sfin_url: `${origin}/simplefin` }],
      accounts: set.accounts.map((account) => ({ ...toSimplefinAccount(account, set.now), conn_id: connId })),
    };
  }
  const org = { domain: new URL(origin).host, 'sfin-url': `${origin}/simplefin`, name: 'Sandbank', id: 'sandbank' };
  return {
    errors: truncated.map(({ name }) => missing(name)),
    accounts: set.accounts.map((account) => ({ org, ...toSimplefinAccount(account, set.now) })),
  };
}
