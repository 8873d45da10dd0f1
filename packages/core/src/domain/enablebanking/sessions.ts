/**
 * Sessions of the Enable Banking face (docs/faces/enablebanking.md): `POST /sessions { code }` uses an
 * approved authorization's code once, for the application that started it, and makes a session whose
 * accounts get uids of their own. A session belongs to its application: every read names it, so
 * another application (of the same user or not) finds nothing. Its status is read on the world's
 * clock: `AUTHORIZED` until the consent's `valid_until`, then `EXPIRED`; `CLOSED` once deleted.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import { hashCode } from './authorizations.ts';
import {
  closeSessionRow,
  closeUserSessionRow,
  incrementDailyAccess,
  insertSession,
  insertSessionAccounts,
  type SessionAccountRow,
  type SessionRow,
  selectSession,
  selectSessionAccount,
  selectUserSessions,
  useAuthorizationCode,
  userApplicationExists,
  userSessionExists,
} from './queries.ts';

export type SessionStatus = 'AUTHORIZED' | 'EXPIRED' | 'CLOSED';

export interface SessionAccount {
  uid: string;
  accountId: string;
  name: string;
  currency: string;
  open: boolean;
  ownerEmail: string;
}

export interface Session {
  id: string;
  applicationId: string;
  userId: string;
  aspsp: { name: string; country: string };
  psuType: 'personal' | 'business';
  validUntil: Date;
  access: { balances: boolean; transactions: boolean };
  createdAt: Date;
  closedAt: Date | null;
  status: SessionStatus;
  accounts: SessionAccount[];
}

const statusOf = (closedAt: Date | null, validUntil: Date, now: Date): SessionStatus =>
  closedAt ? 'CLOSED' : validUntil.getTime() <= now.getTime() ? 'EXPIRED' : 'AUTHORIZED';

const toAccount = (row: SessionAccountRow): SessionAccount => ({
  uid: row.uid,
  accountId: row.account_id,
  name: row.name,
  currency: row.currency,
  open: row.status === 'open',
  ownerEmail: row.email,
});

function toSession(row: SessionRow): Session {
  const validUntil = new Date(row.valid_until);
  const closedAt = row.closed_at === null ? null : new Date(row.closed_at);
  return {
    id: row.id,
    applicationId: row.application_id,
    userId: row.user_id,
    aspsp: { name: row.aspsp_name, country: row.aspsp_country },
    psuType: row.psu_type,
    validUntil,
    access: { balances: row.balances, transactions: row.transactions },
    createdAt: new Date(row.created_at),
    closedAt,
    status: statusOf(closedAt, validUntil, new Date(row.now)),
    accounts: row.accounts.map(toAccount),
  };
}

export type CreateSessionOutcome = { ok: true; session: Session } | { ok: false; refusal: 'wrong-code' | 'expired-code' };

/** Exchanges an authorization code for a session of the application; refused for a wrong, used or expired code. */
export async function createSession(
  em: EntityManager,
  { applicationId, code }: { applicationId: string; code: string },
): Promise<CreateSessionOutcome> {
  const outcome = await em.transactional(async (tx): Promise<CreateSessionOutcome | { ok: true; id: string }> => {
    const used = await useAuthorizationCode(tx, applicationId, hashCode(code));
    if (!used) return { ok: false, refusal: 'wrong-code' };
    const now = new Date(used.now);
    if (new Date(used.valid_until).getTime() <= now.getTime()) return { ok: false, refusal: 'expired-code' };
    const id = randomUUID();
    await insertSession(tx, { id, applicationId, userId: used.user_id, authorizationId: used.id, now });
    await insertSessionAccounts(tx, id, used.account_ids);
    return { ok: true, id };
  });
  if (!outcome.ok || !('id' in outcome)) return outcome as CreateSessionOutcome;
  const session = await readSession(em, { applicationId, id: outcome.id });
  if (!session) throw new Error('the session just created is gone');
  return { ok: true, session };
}

/** A session of the application, or null (another application's is null too). */
export async function readSession(
  em: EntityManager,
  { applicationId, id }: { applicationId: string; id: string },
): Promise<Session | null> {
  const row = await selectSession(em, applicationId, id);
  return row ? toSession(row) : null;
}

/** Closes a session of the application; false when there is none open by that id. */
export const closeSession = (em: EntityManager, { applicationId, id }: { applicationId: string; id: string }) =>
  closeSessionRow(em, applicationId, id);

/** The user's sessions of one of their applications, newest first, and how many (404 for another user's application). */
export async function listSessions(
  em: EntityManager,
  params: { userId: string; applicationId: string; limit: number; offset: number },
): Promise<{ count: number; results: Session[] }> {
  if (!(await userApplicationExists(em, params.userId, params.applicationId))) throw notFound('Application');
  const { rows, count } = await selectUserSessions(em, params);
  return { count, results: rows.map(toSession) };
}

/**
 * The world's owner revokes a session: closed at the world's now, as the app's own `DELETE /sessions`
 * closes it, so its accounts answer as a closed session's. Another user's is 404; a closed one 409.
 */
export async function revokeSession(em: EntityManager, { userId, id }: { userId: string; id: string }): Promise<Session> {
  const applicationId = await closeUserSessionRow(em, userId, id);
  if (applicationId === undefined) {
    if (await userSessionExists(em, userId, id)) throw new AppError('CONFLICT', 'This session is closed already');
    throw notFound('Session');
  }
  const session = await readSession(em, { applicationId, id });
  if (!session) throw new Error('the session just revoked is gone');
  return session;
}

export interface SessionAccountAccess extends SessionAccount {
  sessionId: string;
  userId: string;
  /** The session's ASPSP, by which a face shapes a bank's data as that bank sends it. */
  aspsp: { name: string; country: string };
  status: SessionStatus;
  access: { balances: boolean; transactions: boolean };
  /** The world's now when it was read. */
  now: Date;
}

/** An account of one of the application's sessions by its uid, with the session's status; or null. */
export async function readSessionAccount(
  em: EntityManager,
  { applicationId, uid }: { applicationId: string; uid: string },
): Promise<SessionAccountAccess | null> {
  const row = await selectSessionAccount(em, applicationId, uid);
  if (!row) return null;
  const now = new Date(row.now);
  const closedAt = row.closed_at === null ? null : new Date(row.closed_at);
  return {
    ...toAccount(row),
    sessionId: row.session_id,
    userId: row.user_id,
    aspsp: { name: row.aspsp_name, country: row.aspsp_country },
    status: statusOf(closedAt, new Date(row.valid_until), now),
    access: { balances: row.balances, transactions: row.transactions },
    now,
  };
}

/**
 * Counts one read of a session account (`uid`) in a scope on a Warsaw day of the world's clock, and
 * answers the day's count with it. A face whose ASPSP limits daily reads compares it with its limit;
 * the domain keeps no limit of its own. Each session counts apart (its uids are its own).
 */
export const countSessionAccountReads = (em: EntityManager, params: { uid: string; scope: string; day: string }) =>
  incrementDailyAccess(em, params);
