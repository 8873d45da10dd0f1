/**
 * Authorizations of the Enable Banking face (docs/faces/enablebanking.md): `POST /auth` asks the
 * world's owner for access to their accounts at an ASPSP until `valid_until` (the world's clock).
 * The owner approves, with the accounts picked (default: every open account, as they are then), or
 * refuses, once — a conditional UPDATE, so of two racing decisions one wins. Approval makes a one-time
 * code (kept only as its SHA-256) that the browser carries back to the app's `redirect_url` with
 * the app's `state`; `POST /sessions` exchanges it (sessions.ts). An ASPSP that links at once (the
 * sandbox one) approves every open account in the transaction that creates the authorization.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import { userNow } from '../clock/clock.ts';
import type { Application } from './applications.ts';
import {
  type AuthorizationRow,
  countAuthorizations,
  decidePendingAuthorization,
  insertAuthorization,
  selectAuthorizationView,
  selectOpenAccountIds,
  selectUserAuthorization,
} from './queries.ts';

/** Authorizations per application: a bound on a new input path, far above any test's need. */
const MAX_PER_APPLICATION = 10_000;

export interface Aspsp {
  name: string;
  country: string;
  /** The longest consent the ASPSP gives, in seconds. */
  maximumConsentSeconds: number;
  /** Approves every open account at once (no consent page). */
  linksAtOnce: boolean;
}

export interface Authorization {
  id: string;
  applicationId: string;
  userId: string;
  aspsp: { name: string; country: string };
  psuType: 'personal' | 'business';
  state: string;
  redirectUrl: string;
  validUntil: Date;
  /** What the consent covers besides the accounts' details. */
  access: { balances: boolean; transactions: boolean };
  status: AuthorizationRow['status'];
  createdAt: Date;
}

const toAuthorization = (row: AuthorizationRow): Authorization => ({
  id: row.id,
  applicationId: row.application_id,
  userId: row.user_id,
  aspsp: { name: row.aspsp_name, country: row.aspsp_country },
  psuType: row.psu_type,
  state: row.state,
  redirectUrl: row.redirect_url,
  validUntil: new Date(row.valid_until),
  access: { balances: row.balances, transactions: row.transactions },
  status: row.status,
  createdAt: new Date(row.created_at),
});

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

const invalid = (path: string, message: string) => new AppError('VALIDATION_ERROR', message, { details: [{ path, message }] });

/** Where the browser goes after a decision: the app's redirect URL with the code (or the refusal) and its state. */
function redirectOf(authorization: Authorization, code: string | null): string {
  const url = new URL(authorization.redirectUrl);
  if (code) url.searchParams.set('code', code);
  else {
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('error_description', 'The user refused the consent');
  }
  url.searchParams.set('state', authorization.state);
  return url.toString();
}

/** Approves or refuses a pending authorization inside `tx`; the redirect, or undefined when it was not pending. */
async function decide(
  tx: EntityManager,
  d: { userId: string; id: string; approve: boolean; accountIds: string[] | null; now: Date },
): Promise<{ authorization: Authorization; redirect: string } | undefined> {
  let picked: string[] | null = null;
  if (d.approve) {
    picked = await selectOpenAccountIds(tx, d.userId, d.accountIds);
    if (d.accountIds !== null && picked.length !== new Set(d.accountIds).size)
      throw invalid('accountIds', 'Every account picked must be one of your open accounts');
  }
  const code = d.approve ? randomUUID() : null;
  const row = await decidePendingAuthorization(tx, {
    userId: d.userId,
    id: d.id,
    approve: d.approve,
    codeHash: code && hashCode(code),
    accountIds: picked,
    now: d.now,
  });
  if (!row) return undefined;
  const authorization = toAuthorization(row);
  return { authorization, redirect: redirectOf(authorization, code) };
}

export interface StartAuthorizationParams {
  application: Application;
  aspsp: Aspsp;
  state: string;
  redirectUrl: string;
  /** The consent's end on the world's clock: after its now, within the ASPSP's maximum. */
  validUntil: Date;
  access: { balances: boolean; transactions: boolean };
  psuType: 'personal' | 'business';
}

/** Creates an authorization; for an ASPSP that links at once, approved already, with the redirect carrying its code. */
export async function startAuthorization(
  em: EntityManager,
  params: StartAuthorizationParams,
): Promise<{ authorization: Authorization; redirect: string | null }> {
  const { application, aspsp } = params;
  const userId = application.userId;
  return em.transactional(async (tx) => {
    if ((await countAuthorizations(tx, application.id)) >= MAX_PER_APPLICATION)
      throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_PER_APPLICATION} authorizations per application`);
    const now = await userNow(tx, userId);
    if (params.validUntil.getTime() <= now.getTime())
      throw invalid('access.valid_until', `access.valid_until must be after now in the world (${now.toISOString()})`);
    const latest = now.getTime() + aspsp.maximumConsentSeconds * 1000;
    if (params.validUntil.getTime() > latest) {
      throw invalid(
        'access.valid_until',
        `access.valid_until must be at most ${aspsp.maximumConsentSeconds} seconds after now in the world (${new Date(latest).toISOString()})`,
      );
    }
    const id = randomUUID();
    await insertAuthorization(tx, {
      id,
      applicationId: application.id,
      userId,
      aspspName: aspsp.name,
      aspspCountry: aspsp.country,
      psuType: params.psuType,
      state: params.state,
      redirectUrl: params.redirectUrl,
      validUntil: params.validUntil,
      ...params.access,
      now,
    });
    if (aspsp.linksAtOnce) {
      const decided = await decide(tx, { userId, id, approve: true, accountIds: null, now });
      if (!decided) throw new Error('the authorization just created is not pending');
      return decided;
    }
    const row = await selectUserAuthorization(tx, userId, id);
    if (!row) throw new Error('the authorization just created is gone');
    return { authorization: toAuthorization(row), redirect: null };
  });
}

/** The owner's answer to a pending authorization (the consent page): the redirect for their browser. */
export async function decideAuthorization(
  em: EntityManager,
  { userId, id, approve, accountIds }: { userId: string; id: string; approve: boolean; accountIds?: string[] | undefined },
): Promise<{ authorization: Authorization; redirect: string }> {
  return em.transactional(async (tx) => {
    const now = await userNow(tx, userId);
    const decided = await decide(tx, { userId, id, approve, accountIds: accountIds ?? null, now });
    if (decided) return decided;
    if (!(await selectUserAuthorization(tx, userId, id))) throw notFound('Authorization');
    throw new AppError('CONFLICT', 'This authorization has been decided already');
  });
}

/** An authorization of the user as the consent page shows it (with the application's name), or null. */
export async function readAuthorization(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<(Authorization & { applicationName: string }) | null> {
  const row = await selectAuthorizationView(em, userId, id);
  return row ? { ...toAuthorization(row), applicationName: row.application_name } : null;
}
