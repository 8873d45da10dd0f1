/**
 * Requisitions of the GoCardless face: an app asks the world's owner to link accounts of
 * an institution under an end-user agreement. A requisition is created `CR`; opening the consent page
 * makes it `GC` (giving consent), going on to pick accounts `SA` (selecting accounts), each on the
 * world's clock and only forwards; the owner approves (`LN`, with the accounts picked; the agreement
 * is accepted then) or refuses (`RJ`) from any of those, once — a conditional UPDATE, so of two
 * racing decisions one wins. `UA` and `GA` take no time here: the console's sign-in is the bank's
 * authentication, and granting access is the transaction that links. An institution that links at once (the
 * sandbox one) links every open account in the transaction that creates the requisition. `EX` is read, not stored:
 * a linked requisition whose agreement ran out on the world's clock.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { userNow } from '../clock/clock.ts';
import {
  type Agreement,
  agreementExpired,
  type CreateAgreementParams,
  checkFaceLimit,
  createAgreement,
  findAgreement,
  toAgreement,
} from './agreements.ts';
import {
  acceptAgreement,
  agreementInUse,
  countRequisitions,
  decideUndecidedRequisition,
  insertLinkedAccounts,
  insertRequisition,
  type RequisitionRow,
  referenceTaken,
  requisitionExists,
  selectRequisition,
  selectRequisitions,
  stepRequisition,
} from './queries.ts';

export const REQUISITION_STATUSES = ['CR', 'GC', 'SA', 'LN', 'RJ', 'EX'] as const;
export type RequisitionStatus = (typeof REQUISITION_STATUSES)[number];
/** The statuses before the owner's decision, in their order. */
const UNDECIDED = ['CR', 'GC', 'SA'] as const;
export type ConsentStep = 'GC' | 'SA';

export interface Requisition {
  id: string;
  userId: string;
  institutionId: string;
  agreement: Agreement;
  redirect: string;
  reference: string;
  userLanguage: string;
  status: RequisitionStatus;
  createdAt: Date;
  /** When it reached its status (the world's clock); for `EX`, when it was linked. */
  stepAt: Date;
  /** The face ids of the linked accounts, in the order they were picked. */
  accounts: string[];
  /** The requesting app, by the name of the API key it signed in with (its `secret_id`); null for older requisitions. */
  appName: string | null;
}

export interface CreateRequisitionParams {
  userId: string;
  /** The API key (`secret_id`) of the app's token: the consent page names the app by it. */
  apiKeyId: string;
  institutionId: string;
  /** An agreement of this user for this institution, or the agreement to create with the requisition. */
  agreement: { id: string } | Omit<CreateAgreementParams, 'userId' | 'institutionId'>;
  redirect: string;
  reference: string | null;
  userLanguage: string;
  linkAtOnce: boolean;
}

const invalid = (path: string, message: string) => new AppError('VALIDATION_ERROR', message, { details: [{ path, message }] });

export async function createRequisition(em: EntityManager, params: CreateRequisitionParams): Promise<Requisition> {
  const { userId, institutionId } = params;
  return em.transactional(async (tx) => {
    await checkFaceLimit(tx, userId, 'gocardless_requisitions', 'requisitions');
    let agreement: Agreement | null;
    if ('id' in params.agreement) {
      agreement = await findAgreement(tx, { userId, id: params.agreement.id });
      if (!agreement) throw invalid('agreement', `Agreement ${params.agreement.id} does not exist`);
      if (agreement.institutionId !== institutionId) {
        throw invalid('agreement', `Agreement ${agreement.id} is for ${agreement.institutionId}, not ${institutionId}`);
      }
      if (await agreementInUse(tx, agreement.id))
        throw invalid('agreement', `Agreement ${agreement.id} is already used by a requisition`);
    } else {
      agreement = await createAgreement(tx, { userId, institutionId, ...params.agreement });
    }
    const requisitionId = uuidv7();
    const reference = params.reference ?? requisitionId;
    if (await referenceTaken(tx, userId, reference))
      throw invalid('reference', `Reference ${reference} is already used by another requisition`);
    const now = await userNow(tx, userId);
    await insertRequisition(tx, {
      id: requisitionId,
      userId,
      agreementId: agreement.id,
      institutionId,
      redirect: params.redirect,
      reference,
      userLanguage: params.userLanguage,
      apiKeyId: params.apiKeyId,
      now,
    });
    // The answer is the requisition as created (CR, no accounts), as GoCardless always answers;
    // the sandbox institution has linked it by the time the app reads it back.
    const created = await readRequisition(tx, { userId, id: requisitionId });
    if (!created) throw new Error('the requisition just created is gone');
    if (params.linkAtOnce) await link(tx, { userId, requisitionId, accountIds: null, now });
    return created;
  });
}

/** Links the accounts (null: every open account, oldest first), accepts the agreement, marks the requisition LN. */
async function link(
  tx: EntityManager,
  { userId, requisitionId, accountIds, now }: { userId: string; requisitionId: string; accountIds: string[] | null; now: Date },
): Promise<boolean> {
  const agreementId = await decideUndecidedRequisition(tx, { userId, id: requisitionId, status: 'LN', now });
  if (agreementId === undefined) return false;
  const linked = await insertLinkedAccounts(tx, { userId, requisitionId, accountIds, now });
  if (accountIds !== null && linked !== new Set(accountIds).size) {
    throw invalid('accountIds', 'Every account picked must be one of your open accounts');
  }
  await acceptAgreement(tx, agreementId, now);
  return true;
}

/**
 * The owner's progress on the consent page: `GC` when it opens, `SA` when they go on to pick
 * accounts. Forwards only (opening the page again on `SA` leaves it `SA`); a decided requisition is
 * left as it is. Answers the requisition as it now reads.
 */
export async function advanceRequisition(
  em: EntityManager,
  { userId, id, step }: { userId: string; id: string; step: ConsentStep },
): Promise<Requisition> {
  const earlier = UNDECIDED.slice(0, UNDECIDED.indexOf(step));
  await em.transactional(async (tx) => {
    const now = await userNow(tx, userId);
    await stepRequisition(tx, { userId, id, step, earlier, now });
  });
  const requisition = await readRequisition(em, { userId, id });
  if (!requisition) throw notFound('Requisition');
  return requisition;
}

/** The owner's answer to a requisition not decided yet (`CR`, `GC` or `SA`): approve with the accounts picked (default: all open ones), or refuse. */
export async function decideRequisition(
  em: EntityManager,
  { userId, id, approve, accountIds }: { userId: string; id: string; approve: boolean; accountIds?: string[] | undefined },
): Promise<Requisition> {
  if (approve && accountIds?.length === 0) throw invalid('accountIds', 'Pick at least one account');
  await em.transactional(async (tx) => {
    const now = await userNow(tx, userId);
    const decided = approve
      ? await link(tx, { userId, requisitionId: id, accountIds: accountIds ?? null, now })
      : (await decideUndecidedRequisition(tx, { userId, id, status: 'RJ', now })) !== undefined;
    if (decided) return;
    if (!(await requisitionExists(tx, userId, id))) throw notFound('Requisition');
    throw new AppError('CONFLICT', 'This requisition has been decided already');
  });
  const requisition = await readRequisition(em, { userId, id });
  if (!requisition) throw notFound('Requisition');
  return requisition;
}

function toRequisition(row: RequisitionRow): Requisition {
  const agreement = toAgreement(row.agreement);
  const expired = row.status === 'LN' && agreementExpired(agreement, new Date(row.now));
  return {
    id: row.id,
    userId: row.user_id,
    institutionId: row.institution_id,
    agreement,
    redirect: row.redirect,
    reference: row.reference,
    userLanguage: row.user_language,
    status: expired ? 'EX' : row.status,
    createdAt: new Date(row.created_at),
    stepAt: new Date(row.step_at),
    accounts: row.accounts,
    appName: row.app_name,
  };
}

/** One of the user's requisitions, or null (another user's is null too). */
export async function readRequisition(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<Requisition | null> {
  const row = await selectRequisition(em, userId, id);
  return row ? toRequisition(row) : null;
}

/** The user's requisitions, newest first, and how many there are. */
export async function listRequisitions(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<{ count: number; results: Requisition[] }> {
  const rows = await selectRequisitions(em, { userId, limit, offset });
  return { count: await countRequisitions(em, userId), results: rows.map(toRequisition) };
}

/** Where the owner's browser goes after deciding: the app's `redirect` with `ref` = the requisition's reference. */
export function redirectAfterDecision(requisition: Requisition): string {
  const url = new URL(requisition.redirect);
  url.searchParams.set('ref', requisition.reference);
  return url.toString();
}
