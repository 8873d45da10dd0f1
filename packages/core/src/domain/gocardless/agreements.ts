/**
 * End-user agreements of the GoCardless face (docs/faces/gocardless.md): how far back (`maxHistoricalDays`), how long
 * from its acceptance (`accessValidForDays`) and what (`accessScope`) an app may read. The face checks
 * the numbers against the institution it names; this module keeps them and says, on the world's
 * clock, whether an accepted agreement still holds.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { lockUser } from '../auth/queries.ts';
import { userNow } from '../clock/clock.ts';
import { type AgreementRow, countFaceRows, insertAgreement, selectAgreement } from './queries.ts';

/** Agreements and requisitions per user: a bound on a new input path, far above any test's need. */
const MAX_PER_USER = 1000;

export const ACCESS_SCOPES = ['balances', 'details', 'transactions'] as const;
export type AccessScope = (typeof ACCESS_SCOPES)[number];

export interface Agreement {
  id: string;
  userId: string;
  institutionId: string;
  maxHistoricalDays: number;
  accessValidForDays: number;
  accessScope: AccessScope[];
  createdAt: Date;
  acceptedAt: Date | null;
}

export const toAgreement = (row: AgreementRow): Agreement => ({
  id: row.id,
  userId: row.user_id,
  institutionId: row.institution_id,
  maxHistoricalDays: row.max_historical_days,
  accessValidForDays: row.access_valid_for_days,
  accessScope: row.access_scope as AccessScope[],
  createdAt: new Date(row.created_at),
  acceptedAt: row.accepted_at === null ? null : new Date(row.accepted_at),
});

/** When an accepted agreement stops giving access (null while not accepted). */
const agreementEndsAt = (agreement: Agreement): Date | null =>
  agreement.acceptedAt && new Date(agreement.acceptedAt.getTime() + agreement.accessValidForDays * 86_400_000);

export const agreementExpired = (agreement: Agreement, now: Date): boolean => {
  const end = agreementEndsAt(agreement);
  return end !== null && end.getTime() <= now.getTime();
};

/** Refuses a new row when the user has MAX_PER_USER of this table already (serialised per user). */
export async function checkFaceLimit(
  tx: EntityManager,
  userId: string,
  table: 'gocardless_agreements' | 'gocardless_requisitions',
  what: string,
): Promise<void> {
  await lockUser(tx, userId);
  if ((await countFaceRows(tx, userId, table)) >= MAX_PER_USER)
    throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_PER_USER} ${what} per user`);
}

export interface CreateAgreementParams {
  userId: string;
  institutionId: string;
  maxHistoricalDays: number;
  accessValidForDays: number;
  accessScope: AccessScope[];
}

export async function createAgreement(em: EntityManager, params: CreateAgreementParams): Promise<Agreement> {
  return em.transactional(async (tx) => {
    await checkFaceLimit(tx, params.userId, 'gocardless_agreements', 'end-user agreements');
    const row = await insertAgreement(tx, {
      id: uuidv7(),
      userId: params.userId,
      institutionId: params.institutionId,
      maxHistoricalDays: params.maxHistoricalDays,
      accessValidForDays: params.accessValidForDays,
      accessScope: [...new Set(params.accessScope)],
      createdAt: await userNow(tx, params.userId),
    });
    if (!row) throw new Error('the agreement insert returned no row');
    return toAgreement(row);
  });
}

/** One of the user's agreements, or null (another user's is null too). */
export async function findAgreement(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<Agreement | null> {
  const row = await selectAgreement(em, userId, id);
  return row ? toAgreement(row) : null;
}
