/**
 * Payment initiation of the Enable Banking face (docs/faces/enablebanking.md#payments): `POST /payments`
 * is a payment request of an application to the world's owner — an amount to a creditor's IBAN over a
 * scheme, with remittance, from a debtor account the app names or the owner picks. The owner authorises
 * it on the consent page (an ASPSP that links at once authorises it in the transaction that creates it,
 * from the debtor account named or the oldest open account in the currency) or refuses it, once.
 * Authorised, it is executed as a section-19 payment (`createPaymentInTransaction`, in the same
 * database transaction as the decision): the same holds, calendar, statuses and reasons; the request's
 * status follows that payment's from then on. A request belongs to its application: every read names it.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import type { Currency, ExternalScheme, Payment } from '@sandbank/schemas';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { AppError, notFound } from '../../errors.ts';
import { ibanOf } from '../accounts/iban.ts';
import { userNow } from '../clock/clock.ts';
import { createPaymentInTransaction, MAX_PAYMENT_AMOUNT } from '../payments/create-payment.ts';
import { readPayment } from '../payments/read-payments.ts';
import { SCHEME_CURRENCY } from '../payments/schemes.ts';
import type { Application } from './applications.ts';
import type { Aspsp } from './authorizations.ts';
import {
  countPaymentRequests,
  decidePendingPaymentRequest,
  deletePaymentRequestRow,
  insertPaymentRequest,
  linkPaymentRequest,
  type OpenAccountRow,
  type PaymentRequestRow,
  selectApplicationPaymentRequest,
  selectOpenAccounts,
  selectUserPaymentRequest,
  selectUserPaymentRequests,
  userApplicationExists,
} from './queries.ts';

/** Payment requests per application: a bound on a new input path, far above any test's need. */
const MAX_PER_APPLICATION = 10_000;

export interface PaymentRequest {
  id: string;
  applicationId: string;
  applicationName: string;
  userId: string;
  aspsp: { name: string; country: string };
  psuType: 'personal' | 'business';
  /** Enable Banking's payment type as the app asked (SEPA, INST_SEPA, DOMESTIC). */
  paymentType: string;
  scheme: ExternalScheme;
  state: string;
  redirectUrl: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  creditor: { name: string; iban: string };
  remittance: string;
  debtorAccountId: string | null;
  /** The app's `payment_request` as it sent it (read back by `GET /payments/:id`). */
  details: unknown;
  status: PaymentRequestRow['status'];
  /** The section-19 payment it became once authorised (null before, or when refused). */
  payment: Payment | null;
  createdAt: Date;
}

/** Enable Banking's `PaymentStatus` values (its OpenAPI document). */
export const EB_PAYMENT_STATUSES = ['PDNG', 'RCVD', 'ACTC', 'ACSP', 'ACSC', 'RJCT', 'CNCL'] as const;
export type EbPaymentStatus = (typeof EB_PAYMENT_STATUSES)[number];

/**
 * A payment request's status in Enable Banking's words: `PDNG` while the owner has not decided,
 * `CNCL` when they cancelled; then the section-19 payment's own ISO 20022 status (RCVD, ACTC, ACSP,
 * ACSC, RJCT; `CANC` is the document's `CNCL`). Final: settled, rejected or cancelled.
 */
export function ebPaymentStatusOf(request: PaymentRequest): { status: EbPaymentStatus; final: boolean } {
  const status: EbPaymentStatus =
    request.status === 'pending'
      ? 'PDNG'
      : request.status === 'refused' || request.payment === null
        ? 'CNCL'
        : request.payment.status === 'CANC'
          ? 'CNCL'
          : request.payment.status;
  return { status, final: status === 'ACSC' || status === 'RJCT' || status === 'CNCL' };
}

const invalid = (path: string, message: string) => new AppError('VALIDATION_ERROR', message, { details: [{ path, message }] });

async function toRequest(em: EntityManager, row: PaymentRequestRow): Promise<PaymentRequest> {
  return {
    id: row.id,
    applicationId: row.application_id,
    applicationName: row.application_name,
    userId: row.user_id,
    aspsp: { name: row.aspsp_name, country: row.aspsp_country },
    psuType: row.psu_type,
    paymentType: row.payment_type,
    scheme: row.scheme as ExternalScheme,
    state: row.state,
    redirectUrl: row.redirect_url,
    amount: Number(row.amount),
    currency: row.currency,
    creditor: { name: row.creditor_name, iban: row.creditor_iban },
    remittance: row.remittance,
    debtorAccountId: row.debtor_account_id,
    details: row.payment_details,
    status: row.status,
    payment: row.payment_id === null ? null : await readPayment(em, { userId: row.user_id, paymentId: row.payment_id }),
    createdAt: new Date(row.created_at),
  };
}

/** An open account of the user in the currency: the one named by IBAN, else (`null`) the oldest. */
function debtorOf(accounts: OpenAccountRow[], currency: string, iban: string | null, path: string): OpenAccountRow {
  const candidates = accounts.filter((account) => account.currency === currency);
  const found = iban === null ? candidates[0] : candidates.find((account) => ibanOf(account.id) === iban);
  if (!found) {
    throw invalid(
      path,
      iban === null
        ? `No open account in ${currency} to pay from`
        : `Must be the IBAN of one of your open accounts in ${currency}`,
    );
  }
  return found;
}

/** Executes an authorised request as a section-19 payment inside `tx`, and links the two. */
async function execute(tx: EntityManager, row: PaymentRequestRow, debtorAccountId: string): Promise<void> {
  const payment = await createPaymentInTransaction(tx, {
    userId: row.user_id,
    fromAccountId: debtorAccountId,
    to: { iban: row.creditor_iban, name: row.creditor_name },
    amount: Number(row.amount),
    currency: row.currency as Currency,
    description: row.remittance,
    scheme: row.scheme as ExternalScheme,
    requestedExecutionDate: row.requested_execution_date ?? undefined,
    endToEndId: row.end_to_end_id ?? undefined,
  });
  await linkPaymentRequest(tx, row.id, payment.id);
}

/** Where the browser goes after a decision: the app's redirect URL with its state (and the refusal). */
function redirectOf(row: PaymentRequestRow, approved: boolean): string {
  const url = new URL(row.redirect_url);
  if (!approved) {
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('error_description', 'The user cancelled the payment');
  }
  url.searchParams.set('state', row.state);
  return url.toString();
}

async function decide(
  tx: EntityManager,
  d: { userId: string; id: string; approve: boolean; accountId: string | null; now: Date },
): Promise<string | undefined> {
  const row = await selectUserPaymentRequest(tx, d.userId, d.id);
  if (row?.status !== 'pending') return undefined;
  let debtor: string | null = null;
  if (d.approve) {
    const accounts = await selectOpenAccounts(tx, d.userId);
    if (d.accountId !== null) {
      const picked = accounts.find((account) => account.id === d.accountId && account.currency === row.currency);
      if (!picked) throw invalid('accountId', `Must be one of your open accounts in ${row.currency}`);
      debtor = picked.id;
    } else debtor = row.debtor_account_id ?? debtorOf(accounts, row.currency, null, 'accountId').id;
  }
  if (!(await decidePendingPaymentRequest(tx, { ...d, debtorAccountId: debtor }))) return undefined;
  if (debtor !== null) await execute(tx, row, debtor);
  return redirectOf(row, d.approve);
}

export interface StartPaymentParams {
  application: Application;
  aspsp: Aspsp;
  psuType: 'personal' | 'business';
  paymentType: string;
  scheme: ExternalScheme;
  state: string;
  redirectUrl: string;
  amount: bigint;
  currency: string;
  creditor: { name: string; iban: string };
  remittance: string;
  endToEndId: string | null;
  requestedExecutionDate: string | null;
  /** The debtor account the app names, by IBAN; null: the owner picks it. */
  debtorIban: string | null;
  details: unknown;
}

/** Creates a payment request; for an ASPSP that links at once, authorised and executed already. */
export async function startPayment(
  em: EntityManager,
  p: StartPaymentParams,
): Promise<{ request: PaymentRequest; redirect: string | null }> {
  const base = 'payment_request.credit_transfer_transaction.0';
  if (p.amount <= 0n || p.amount > BigInt(MAX_PAYMENT_AMOUNT))
    throw invalid(`${base}.instructed_amount.amount`, 'Must be above 0 and at most 10^12 minor units');
  if (SCHEME_CURRENCY[p.scheme] !== p.currency)
    throw invalid(`${base}.instructed_amount.currency`, `A ${p.paymentType} payment is in ${SCHEME_CURRENCY[p.scheme]}`);
  const iban = electronicFormatIBAN(p.creditor.iban) ?? '';
  if (!isValidIBAN(iban))
    throw invalid(
      `${base}.beneficiary.creditor_account.identification`,
      'Must be a valid IBAN (country, length and check digits)',
    );
  const userId = p.application.userId;
  const id = randomUUID();
  const redirect = await em.transactional(async (tx) => {
    if ((await countPaymentRequests(tx, p.application.id)) >= MAX_PER_APPLICATION)
      throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_PER_APPLICATION} payments per application`);
    const now = await userNow(tx, userId);
    const debtorIban = p.debtorIban === null ? null : (electronicFormatIBAN(p.debtorIban) ?? p.debtorIban);
    const debtor =
      debtorIban === null
        ? null
        : debtorOf(await selectOpenAccounts(tx, userId), p.currency, debtorIban, 'payment_request.debtor_account.identification');
    await insertPaymentRequest(tx, {
      id,
      applicationId: p.application.id,
      userId,
      aspspName: p.aspsp.name,
      aspspCountry: p.aspsp.country,
      psuType: p.psuType,
      paymentType: p.paymentType,
      scheme: p.scheme,
      state: p.state,
      redirectUrl: p.redirectUrl,
      amount: Number(p.amount),
      currency: p.currency,
      creditorName: p.creditor.name,
      creditorIban: iban,
      remittance: p.remittance,
      endToEndId: p.endToEndId,
      requestedExecutionDate: p.requestedExecutionDate,
      debtorAccountId: debtor?.id ?? null,
      paymentDetails: p.details,
      now,
    });
    if (!p.aspsp.linksAtOnce) return null;
    const decided = await decide(tx, { userId, id, approve: true, accountId: null, now });
    if (!decided) throw new Error('the payment request just created is not pending');
    return decided;
  });
  const request = await readApplicationPayment(em, { applicationId: p.application.id, id });
  if (!request) throw new Error('the payment request just created is gone');
  return { request, redirect };
}

/** A payment request of the application (not deleted), with the payment it became; or null. */
export async function readApplicationPayment(
  em: EntityManager,
  { applicationId, id }: { applicationId: string; id: string },
): Promise<PaymentRequest | null> {
  const row = await selectApplicationPaymentRequest(em, applicationId, id);
  return row ? toRequest(em, row) : null;
}

/** A payment request of the user as the consent page shows it, or null. */
export async function readUserPayment(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<PaymentRequest | null> {
  const row = await selectUserPaymentRequest(em, userId, id);
  return row ? toRequest(em, row) : null;
}

/** The user's payment requests of one of their applications, newest first, and how many (404 for another user's application). */
export async function listPayments(
  em: EntityManager,
  params: { userId: string; applicationId: string; limit: number; offset: number },
): Promise<{ count: number; results: PaymentRequest[] }> {
  if (!(await userApplicationExists(em, params.userId, params.applicationId))) throw notFound('Application');
  const { rows, count } = await selectUserPaymentRequests(em, params);
  const results: PaymentRequest[] = [];
  for (const row of rows) results.push(await toRequest(em, row));
  return { count, results };
}

/** The owner's answer on the consent page (Pay / Cancel): the redirect for their browser. */
export async function decidePayment(
  em: EntityManager,
  { userId, id, approve, accountId }: { userId: string; id: string; approve: boolean; accountId?: string | undefined },
): Promise<{ request: PaymentRequest; redirect: string }> {
  const redirect = await em.transactional(async (tx) => {
    const now = await userNow(tx, userId);
    const decided = await decide(tx, { userId, id, approve, accountId: accountId ?? null, now });
    if (decided) return decided;
    if (!(await selectUserPaymentRequest(tx, userId, id))) throw notFound('Payment');
    throw new AppError('CONFLICT', 'This payment has been decided already');
  });
  const request = await readUserPayment(em, { userId, id });
  if (!request) throw new Error('the payment request just decided is gone');
  return { request, redirect };
}

/** Whether a request's status can still change (then it is not deleted). */
const inProgress = (request: PaymentRequest) =>
  request.payment !== null && ['RCVD', 'ACTC', 'ACSP'].includes(request.payment.status);

/**
 * `DELETE /payments/:id`: the application forgets a finished or failed payment (a pending one is
 * cancelled with it); one still executing stays ('in-progress'). 'missing' for none of the application's.
 */
export async function deleteApplicationPayment(
  em: EntityManager,
  { applicationId, id }: { applicationId: string; id: string },
): Promise<'deleted' | 'missing' | 'in-progress'> {
  const request = await readApplicationPayment(em, { applicationId, id });
  if (!request) return 'missing';
  if (inProgress(request)) return 'in-progress';
  const now = await userNow(em, request.userId);
  if (await deletePaymentRequestRow(em, { applicationId, id, status: request.status, now })) return 'deleted';
  // Decided meanwhile: authorised now, so executing (or gone, if deleted meanwhile).
  return (await readApplicationPayment(em, { applicationId, id })) ? 'in-progress' : 'missing';
}
