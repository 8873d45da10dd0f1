/**
 * The face's routes (docs/faces/enablebanking.md), as Enable Banking's document names them: each
 * parses its input with the wire schemas, calls the domain with the caller's application, and maps
 * the answer once (mapping.ts). Sessions and accounts are always looked up under the caller's
 * application, so another application's (or another user's) are not found.
 */
import {
  closeSession,
  createSession,
  openStatement,
  readSession,
  readSessionAccount,
  type SessionAccountAccess,
  startAuthorization,
} from '@sandbank/core';
import { type FaceRoute, readWorld } from '../kit.ts';
import { aspspsOf, findAspsp } from './aspsps.ts';
import { checkDailyLimit } from './daily-limit.ts';
import { ebErrors } from './errors.ts';
import { type AppCall, parseBody, parseQuery, pathId } from './input.ts';
import {
  localDate,
  psuIdHash,
  schemeOf,
  toAccountResource,
  toApplicationWire,
  toAspspWire,
  toAuthorizedSessionWire,
  toBalancesWire,
  toSessionWire,
} from './mapping.ts';
import { paymentRoutes } from './payments.ts';
import { transactionsPage } from './transactions.ts';
import {
  AccountResource,
  AspspsQuery,
  AuthorizeSessionRequest,
  AuthorizeSessionResponse,
  GetApplicationResponse,
  GetAspspsResponse,
  GetSessionResponse,
  HalBalances,
  HalTransactions,
  StartAuthorizationRequest,
  StartAuthorizationResponse,
  SuccessResponse,
  TransactionsQuery,
} from './wire.ts';

/** Where the owner decides an authorization of an ASPSP that does not link at once. */
const consentUrl = (call: AppCall, id: string) => `${call.deps.config.http.publicUrl}/console/enablebanking/authorizations/${id}`;

/** An account of one of the caller's sessions that may be read now (else 404, 422 closed, 401 expired). */
async function readableAccount(call: AppCall): Promise<SessionAccountAccess> {
  const uid = pathId(call, 'account_id', ebErrors.noAccount);
  const account = await readSessionAccount(call.em, { applicationId: call.application.id, uid });
  if (!account) throw ebErrors.noAccount();
  if (account.status === 'CLOSED') throw ebErrors.closedSession();
  if (account.status === 'EXPIRED') throw ebErrors.expiredSession();
  return account;
}

export const routes: Record<string, FaceRoute<AppCall>> = {
  'get /application': {
    summary: 'The application of the JWT’s kid',
    response: GetApplicationResponse,
    run: async (call) => toApplicationWire(call.application),
  },
  'get /aspsps': {
    summary: 'The ASPSPs (banks), by country: Sandbank Sandbox (links at once) and Sandbank (the owner decides)',
    query: AspspsQuery,
    response: GetAspspsResponse,
    run: async (call) => {
      const query = parseQuery(AspspsQuery, call.req.query);
      // Every ASPSP serves AIS and PIS (SEPA, INST_SEPA, DOMESTIC) for personal and business users.
      const none = query.payment_type !== undefined && schemeOf(query.payment_type, undefined) === undefined;
      return { aspsps: none ? [] : aspspsOf(query.country).map(toAspspWire) };
    },
  },
  'post /auth': {
    summary:
      'Start an authorization: url leads to the consent (Sandbank Sandbox: straight back to redirect_url with code and state)',
    body: StartAuthorizationRequest,
    response: StartAuthorizationResponse,
    run: async (call) => {
      const body = parseBody(StartAuthorizationRequest, call.req.body);
      const aspsp = findAspsp(body.aspsp.name, body.aspsp.country);
      if (!aspsp) throw ebErrors.wrongAspsp();
      if (!call.application.redirectUrls.includes(body.redirect_url)) throw ebErrors.redirectNotAllowed();
      const { authorization, redirect } = await startAuthorization(call.em, {
        application: call.application,
        aspsp,
        state: body.state,
        redirectUrl: body.redirect_url,
        validUntil: new Date(body.access.valid_until),
        access: { balances: body.access.balances ?? true, transactions: body.access.transactions ?? true },
        psuType: body.psu_type,
      });
      return {
        url: redirect ?? consentUrl(call, authorization.id),
        authorization_id: authorization.id,
        psu_id_hash: psuIdHash(authorization.userId),
      };
    },
  },
  'post /sessions': {
    summary: 'Exchange the authorization code for a session with its accounts',
    body: AuthorizeSessionRequest,
    response: AuthorizeSessionResponse,
    run: async (call) => {
      const body = parseBody(AuthorizeSessionRequest, call.req.body);
      const outcome = await createSession(call.em, { applicationId: call.application.id, code: body.code });
      if (!outcome.ok) throw outcome.refusal === 'expired-code' ? ebErrors.expiredCode() : ebErrors.wrongCode();
      return toAuthorizedSessionWire(outcome.session);
    },
  },
  'get /sessions/:session_id': {
    summary: 'A session of the application, its status on the world’s clock',
    response: GetSessionResponse,
    run: async (call) => {
      const id = pathId(call, 'session_id', ebErrors.noSession);
      const session = await readSession(call.em, { applicationId: call.application.id, id });
      if (!session) throw ebErrors.noSession();
      return toSessionWire(session);
    },
  },
  'delete /sessions/:session_id': {
    summary: 'Close a session of the application',
    response: SuccessResponse,
    run: async (call) => {
      const id = pathId(call, 'session_id', ebErrors.noSession);
      if (await closeSession(call.em, { applicationId: call.application.id, id })) return { message: 'OK' };
      if (await readSession(call.em, { applicationId: call.application.id, id })) throw ebErrors.closedSession();
      throw ebErrors.noSession();
    },
  },
  'get /accounts/:account_id/details': {
    summary: 'An account of a session: IBAN, BBAN, BIC, name, currency',
    response: AccountResource,
    run: async (call) => {
      const account = await readableAccount(call);
      await checkDailyLimit(call, account, 'details');
      return toAccountResource(account);
    },
  },
  'get /accounts/:account_id/balances': {
    summary: 'CLBD (booked), ITAV and CLAV (available) now',
    response: HalBalances,
    run: async (call) => {
      const account = await readableAccount(call);
      if (!account.access.balances) throw ebErrors.accessDenied('balances');
      await checkDailyLimit(call, account, 'balances');
      const today = localDate(account.now);
      const head = await readWorld(call, account.userId, async (em) => {
        const reader = await openStatement(em, { userId: account.userId, accountId: account.accountId, from: today, to: today });
        await reader.close();
        return reader.head;
      });
      return toBalancesWire(head);
    },
  },
  'get /accounts/:account_id/transactions': {
    summary: 'Booked then pending transactions of Warsaw days date_from…date_to, 100 a page (continuation_key)',
    query: TransactionsQuery,
    response: HalTransactions,
    run: async (call) => {
      const query = parseQuery(TransactionsQuery, call.req.query);
      const account = await readableAccount(call);
      if (!account.access.transactions) throw ebErrors.accessDenied('transactions');
      if (query.continuation_key === undefined) await checkDailyLimit(call, account, 'transactions');
      return readWorld(call, account.userId, (em) => transactionsPage(em, account, query, call.deps.secrets.jwtSecret));
    },
  },
  ...paymentRoutes,
};
