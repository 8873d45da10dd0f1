/**
 * The account endpoints: a linked account of the caller's linked requisitions (else 404), its
 * agreement still holding on the world's clock (else 401 AccessExpiredError) and granting the scope
 * (else 403), the institution's daily limit if it has one (else 429 RateLimitError), then the
 * world's data through the statement model, mapped once (mapping.ts).
 */
import {
  type AccessScope,
  countDailyAccess,
  type LinkedAccount,
  readLinkedAccount,
  readPendingEntries,
  readStatement,
} from '@sandbank/core';
import { type FaceRoute, readWorld } from '../kit.ts';
import { gcErrors } from './errors.ts';
import { type GcCall, paramId, parseQuery } from './input.ts';
import { findInstitution, type Quirks } from './institutions.ts';
import { addDays, localDate, toAccountWire, toBalancesWire, toDetailsWire, toTransactionsWire } from './mapping.ts';
import { AccountResponse, BalancesResponse, DetailsResponse, TransactionsQuerySchema, TransactionsResponse } from './wire.ts';

async function linkedAccount(call: GcCall): Promise<LinkedAccount> {
  const account = await readLinkedAccount(call.em, { userId: call.caller.userId, id: paramId(call) });
  if (!account) throw gcErrors.notFound();
  return account;
}

/** Seconds until the next Warsaw midnight after `now` (the daily limit's reset). */
function secondsToMidnight(now: Date): number {
  const tomorrow = addDays(localDate(now), 1);
  // Warsaw is UTC+1 or +2: the first instant whose Warsaw date is tomorrow, found within two hours.
  let at = Date.parse(`${tomorrow}T00:00:00Z`) - 2 * 3_600_000;
  while (localDate(new Date(at)) !== tomorrow) at += 3_600_000;
  return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
}

/** The checks every data read passes, in GoCardless's order; returns the account and the institution's quirks. */
async function readable(call: GcCall, scope: AccessScope): Promise<{ account: LinkedAccount; quirks: Quirks }> {
  const account = await linkedAccount(call);
  if (account.expired) throw gcErrors.accessExpired(account.agreement.id);
  if (!account.agreement.accessScope.includes(scope)) throw gcErrors.scopeNotGranted(scope);
  const quirks = findInstitution(account.institutionId)?.quirks ?? {};
  if (quirks.dailyLimit !== undefined) {
    const count = await countDailyAccess(call.em, { linkedAccountId: account.id, scope, day: localDate(account.now) });
    const reset = secondsToMidnight(account.now);
    const headers = {
      HTTP_X_RATELIMIT_ACCOUNT_SUCCESS_LIMIT: String(quirks.dailyLimit),
      HTTP_X_RATELIMIT_ACCOUNT_SUCCESS_REMAINING: String(Math.max(0, quirks.dailyLimit - count)),
      HTTP_X_RATELIMIT_ACCOUNT_SUCCESS_RESET: String(reset),
    };
    call.res.set(headers);
    if (count > quirks.dailyLimit)
      throw gcErrors.dailyLimit(quirks.dailyLimit, reset, { ...headers, 'Retry-After': String(reset) });
  }
  return { account, quirks };
}

export const accountRoutes: Record<string, FaceRoute<GcCall>> = {
  'get /accounts/:id/': {
    summary: 'A linked account’s metadata',
    response: AccountResponse,
    run: async (call) => toAccountWire(await linkedAccount(call)),
  },
  'get /accounts/:id/details/': {
    summary: 'A linked account’s details (IBAN, BIC, owner)',
    response: DetailsResponse,
    run: async (call) => toDetailsWire((await readable(call, 'details')).account),
  },
  'get /accounts/:id/balances/': {
    summary: 'closingBooked, interimBooked and interimAvailable',
    response: BalancesResponse,
    run: async (call) => {
      const { account } = await readable(call, 'balances');
      const today = localDate(account.now);
      const statement = await readWorld(call, call.caller.userId, (em) =>
        readStatement(em, { userId: call.caller.userId, accountId: account.accountId, from: today, to: today }),
      );
      return toBalancesWire(statement);
    },
  },
  'get /accounts/:id/transactions/': {
    summary: 'Booked and pending transactions, within the agreement’s max_historical_days',
    query: TransactionsQuerySchema,
    response: TransactionsResponse,
    run: async (call) => {
      const query = parseQuery(TransactionsQuerySchema, call.req.query);
      const { account, quirks } = await readable(call, 'transactions');
      const today = localDate(account.now);
      const earliest = addDays(today, 1 - account.agreement.maxHistoricalDays);
      const from = query.date_from ?? earliest;
      const to = query.date_to && query.date_to < today ? query.date_to : today;
      if (from < earliest) {
        throw gcErrors.invalidField(
          'date_from',
          `date_from ${from} is before ${earliest}: the End User Agreement allows ${account.agreement.maxHistoricalDays} days of history (max_historical_days)`,
        );
      }
      if (from > to) throw gcErrors.invalidField('date_from', `date_from ${from} is after date_to ${to} (or today, ${today})`);
      const { statement, pending } = await readWorld(call, call.caller.userId, async (em) => ({
        statement: await readStatement(em, { userId: call.caller.userId, accountId: account.accountId, from, to }),
        pending: await readPendingEntries(em, { accountId: account.accountId, from, to }),
      }));
      return toTransactionsWire(account, quirks, statement.entries, pending);
    },
  },
};
