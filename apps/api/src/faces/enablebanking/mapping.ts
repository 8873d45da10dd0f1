/**
 * The one mapping between the world and Enable Banking's wire format (docs/faces/enablebanking.md),
 * each conversion once:
 * - money: integer minor units → Enable Banking's decimal string in major units with the currency's
 *   places (`minorToDecimal`); a transaction's amount unsigned with `credit_debit_indicator`
 *   (`DBIT` when money leaves the account), as the live service sends them; balances signed;
 * - dates: local dates in Europe/Warsaw of the world's instants; instants as ISO 8601 UTC;
 * - ids: a session account's `uid` is its own (new per session); `identification_hash` is stable per
 *   account across sessions (a hash of its IBAN), as apps use it to recognise an account again;
 *   `entry_reference` and `transaction_id` are the Sandbank transaction's id (the same pending and booked);
 * - payments: `instructed_amount`'s decimal string → minor units (`decimalToMinor`: more places than the
 *   currency's minor unit is refused, never rounded); `payment_type` → a section-19 scheme; the
 *   section-19 payment's ISO status → Enable Banking's `PaymentStatus` (the domain's `ebPaymentStatusOf`,
 *   which the console shows too).
 * - the quirks of a bank with a personality (../personalities.ts), applied here as the last step of a
 *   transaction (`withQuirks`), as the GoCardless face applies the same description.
 */
import { createHash } from 'node:crypto';
import {
  type Application,
  type Aspsp,
  decimalToMinor,
  ebPaymentStatusOf,
  ibanOf,
  minorToDecimal,
  nrbOf,
  type PaymentRequest,
  type PendingEntry,
  SANDBANK_BIC,
  type Session,
  type SessionAccount,
  type StatementEntry,
  type StatementHead,
} from '@sandbank/core';
import { CURRENCIES, type ExternalScheme } from '@sandbank/schemas';
import type { z } from 'zod';
import type { Quirks } from '../personalities.ts';
import { ebErrors } from './errors.ts';
import type {
  AccountResource,
  CreatePaymentRequest,
  GetPaymentResponse,
  PaymentRequestResource,
  TransactionSchema,
} from './wire.ts';

const ZONE = 'Europe/Warsaw';
const DAY_MS = 86_400_000;

const warsawDay = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The local date (YYYY-MM-DD) in Europe/Warsaw of an instant. */
export const localDate = (instant: Date): string => warsawDay.format(instant);

/** A calendar date `days` days later (earlier when negative). */
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Minor units → `{ currency, amount }`, signed (balances). */
export const amountOf = (minor: number, currency: string) => ({ currency, amount: minorToDecimal(minor, currency) });

/** Minor units → an unsigned amount and its direction (transactions). */
export function directedAmountOf(minor: number, currency: string) {
  const signed = minorToDecimal(minor, currency);
  const debit = signed.startsWith('-');
  return {
    transaction_amount: { currency, amount: debit ? signed.slice(1) : signed },
    credit_debit_indicator: debit ? ('DBIT' as const) : ('CRDT' as const),
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** Stands for the user at the bank without naming them (the document requires it). */
export const psuIdHash = (userId: string) => sha256(`sandbank-psu:${userId}`);

export const toApplicationWire = (application: Application) => ({
  name: application.name,
  kid: application.id,
  environment: 'SANDBOX' as const,
  redirect_urls: application.redirectUrls,
  active: true,
  countries: ['PL'],
  services: ['AIS' as const, 'PIS' as const],
});

export const toAspspWire = (aspsp: Aspsp) => ({
  name: aspsp.name,
  country: aspsp.country,
  logo: `https://sandbank.invalid/aspsps/${aspsp.country}/${encodeURIComponent(aspsp.name)}.png`,
  psu_types: ['personal' as const, 'business' as const],
  auth_methods: [
    { name: 'redirect', psu_type: 'personal' as const, approach: 'REDIRECT' as const, hidden_method: false },
    { name: 'redirect', psu_type: 'business' as const, approach: 'REDIRECT' as const, hidden_method: false },
  ],
  maximum_consent_validity: aspsp.maximumConsentSeconds,
  beta: false,
  bic: SANDBANK_BIC,
  required_psu_headers: [],
});

const identificationHash = (accountId: string) => sha256(`sandbank-account:${ibanOf(accountId)}`);

export function toAccountResource(account: SessionAccount): z.infer<typeof AccountResource> {
  const iban = ibanOf(account.accountId);
  const hash = identificationHash(account.accountId);
  return {
    account_id: { iban },
    all_account_ids: [{ identification: nrbOf(iban), scheme_name: 'BBAN' }],
    account_servicer: { bic_fi: SANDBANK_BIC, name: 'Sandbank' },
    name: account.name,
    usage: 'PRIV',
    cash_account_type: 'CACC',
    product: 'Sandbank sandbox account',
    currency: account.currency,
    psu_status: account.open ? 'enabled' : 'deleted',
    uid: account.uid,
    identification_hash: hash,
    identification_hashes: [hash],
  };
}

const accessOf = (session: Session) => ({ valid_until: session.validUntil.toISOString(), ...session.access });

export const toAuthorizedSessionWire = (session: Session) => ({
  session_id: session.id,
  accounts: session.accounts.map(toAccountResource),
  aspsp: session.aspsp,
  psu_type: session.psuType,
  access: accessOf(session),
});

export const toSessionWire = (session: Session) => ({
  status: session.status,
  accounts: session.accounts.map((account) => account.uid),
  accounts_data: session.accounts.map((account) => {
    const hash = identificationHash(account.accountId);
    return { uid: account.uid, identification_hash: hash, identification_hashes: [hash] };
  }),
  aspsp: session.aspsp,
  psu_type: session.psuType,
  psu_id_hash: psuIdHash(session.userId),
  access: accessOf(session),
  created: session.createdAt.toISOString(),
  authorized: session.createdAt.toISOString(),
  ...(session.closedAt ? { closed: session.closedAt.toISOString() } : {}),
});

/** Booked now (`CLBD`), and available now (`ITAV`, and `CLAV` as the live service also sends it). */
export function toBalancesWire(today: StatementHead) {
  const { currency } = today.account;
  const day = today.period.to;
  const at = today.createdAt.toISOString();
  return {
    balances: [
      { name: 'Booked balance', balance_amount: amountOf(today.closing, currency), balance_type: 'CLBD' as const },
      { name: 'Interim available', balance_amount: amountOf(today.available, currency), balance_type: 'ITAV' as const },
      { name: 'Closing available', balance_amount: amountOf(today.available, currency), balance_type: 'CLAV' as const },
    ].map((balance) => ({ ...balance, reference_date: day, last_change_date_time: at })),
  };
}

type WireTransaction = z.infer<typeof TransactionSchema>;

function common(currency: string, entry: StatementEntry | PendingEntry) {
  const directed = directedAmountOf(entry.amount, currency);
  const party = entry.merchant
    ? { [directed.credit_debit_indicator === 'DBIT' ? 'creditor' : 'debtor']: { name: entry.merchant } }
    : {};
  return {
    entry_reference: entry.id,
    transaction_id: entry.id,
    ...directed,
    ...party,
    bank_transaction_code: { description: entry.category ?? 'other' },
    remittance_information: [entry.description],
  };
}

export const toBookedWire = (currency: string, entry: StatementEntry): WireTransaction => ({
  ...common(currency, entry),
  status: 'BOOK',
  booking_date: entry.bookingDate,
  value_date: entry.valueDate,
  transaction_date: entry.valueDate,
  balance_after_transaction: amountOf(entry.balanceAfter, currency),
});

export const toPendingWire = (currency: string, entry: PendingEntry): WireTransaction => ({
  ...common(currency, entry),
  status: 'PDNG',
  value_date: entry.valueDate,
  transaction_date: entry.valueDate,
});

/**
 * The payment types the face executes and the section-19 scheme each becomes: SEPA → `sepa` (EUR, next
 * TARGET business day), INST_SEPA → `sepa_instant`, DOMESTIC → `elixir` (PLN, sessions), or
 * `express_elixir` with `instruction_priority: "EXPR"` (the document's Polish express code).
 */
export function schemeOf(type: string, priority: string | undefined): ExternalScheme | undefined {
  if (type === 'SEPA') return 'sepa';
  if (type === 'INST_SEPA') return 'sepa_instant';
  if (type === 'DOMESTIC') return priority === 'EXPR' ? 'express_elixir' : 'elixir';
  return undefined;
}

const isCurrency = (code: string) => (CURRENCIES as readonly string[]).includes(code);
const where = (...path: (string | number)[]) => ({ loc: ['body', ...path.map(String)] });

/** `POST /payments`'s body → what the domain executes (one credit transfer to an IBAN), or 422 in Enable Banking's shape. */
export function toPaymentStart(body: z.infer<typeof CreatePaymentRequest>) {
  const request = body.payment_request;
  const scheme = schemeOf(body.payment_type, request.payment_type_information?.instruction_priority);
  if (!scheme) refusedThrow(['payment_type'], `payment_type ${body.payment_type} is not served; SEPA, INST_SEPA or DOMESTIC`);
  const transfers = request.credit_transfer_transaction;
  if (transfers.length !== 1)
    refusedThrow(
      ['payment_request', 'credit_transfer_transaction'],
      'Exactly one credit transfer (bulk payments are not served)',
    );
  const transfer = transfers[0] as (typeof transfers)[number];
  const { currency, amount } = transfer.instructed_amount;
  const at = ['payment_request', 'credit_transfer_transaction', 0];
  if (!isCurrency(currency)) refusedThrow([...at, 'instructed_amount', 'currency'], `Unknown currency ${currency}`);
  const minor = decimalToMinor(amount, currency);
  if (minor === null || minor <= 0n)
    refusedThrow([...at, 'instructed_amount', 'amount'], `Must be above 0 with at most the minor unit's places of ${currency}`);
  const account = transfer.beneficiary.creditor_account;
  if (account.scheme_name !== 'IBAN') refusedThrow([...at, 'beneficiary', 'creditor_account', 'scheme_name'], 'Must be IBAN');
  const debtor = request.debtor_account;
  if (debtor && debtor.scheme_name !== 'IBAN') refusedThrow(['payment_request', 'debtor_account', 'scheme_name'], 'Must be IBAN');
  if (request.debtor_currency !== undefined && request.debtor_currency !== currency)
    refusedThrow(['payment_request', 'debtor_currency'], `Must be the instructed amount's currency, ${currency}`);
  const remittance = (transfer.remittance_information ?? []).join(' ');
  if (remittance.length > 140) refusedThrow([...at, 'remittance_information'], 'At most 140 characters in all');
  return {
    paymentType: body.payment_type,
    scheme: scheme as ExternalScheme,
    amount: minor as bigint,
    currency,
    creditor: { name: transfer.beneficiary.creditor.name, iban: account.identification },
    remittance,
    endToEndId: transfer.payment_id?.end_to_end_id ?? null,
    requestedExecutionDate: transfer.requested_execution_date ?? null,
    debtorIban: debtor?.identification ?? null,
    details: request,
  };
}

function refusedThrow(path: (string | number)[], msg: string): never {
  throw ebErrors.wrongParameters([{ ...where(...path), msg, type: 'value_error' }]);
}

type EbPaymentStatus = ReturnType<typeof ebPaymentStatusOf>['status'];

/** The request as the app sent it, with the debtor account the owner picked and each transfer's status. */
function detailsOf(request: PaymentRequest, status: EbPaymentStatus): z.infer<typeof PaymentRequestResource> {
  const details = request.details as z.infer<typeof PaymentRequestResource>;
  const debtor = request.payment
    ? { debtor_account: { identification: ibanOf(request.payment.fromAccountId), scheme_name: 'IBAN' } }
    : {};
  return {
    ...details,
    ...debtor,
    credit_transfer_transaction: details.credit_transfer_transaction.map((transfer) => ({
      ...transfer,
      transaction_status: status,
    })),
  };
}

export function toPaymentWire(request: PaymentRequest): z.infer<typeof GetPaymentResponse> {
  const { status, final } = ebPaymentStatusOf(request);
  const reason = request.payment?.statusReason;
  return {
    payment_id: request.id,
    status,
    payment_details: detailsOf(request, status),
    payment_type: request.paymentType as z.infer<typeof GetPaymentResponse>['payment_type'],
    aspsp: request.aspsp,
    final_status: final,
    ...(reason
      ? { status_reason_information: { status_reason_code: reason.code, status_reason_description: reason.message } }
      : {}),
    psu_id_hash: psuIdHash(request.userId),
  };
}

/** A booked entry's booking day and its 1-based place among that day's booked entries (for `datedIds`). */
export interface DayPlace {
  day: string;
  place: number;
}

/**
 * The quirks that have a place in Enable Banking's shape, one step each in a fixed order: dates
 * exchanged, the bank's own dated ids, no ids on a pending entry (`entry_reference` and
 * `transaction_id` are optional in Enable Banking's document: it passes on what the bank gives), the
 * counterparty only in the remittance text, no balance after. `remittanceAsArray` has none (the shape's
 * remittance is always an array); `dailyLimit` is a refusal, not a shape (daily-limit.ts;
 * docs/faces/personalities.md).
 */
export function withQuirks(wire: WireTransaction, quirks: Quirks, booked?: DayPlace): WireTransaction {
  const out = { ...wire };
  if (quirks.pendingWithoutId && out.status === 'PDNG') {
    delete out.entry_reference;
    delete out.transaction_id;
  }
  if (quirks.swapDates && booked && out.booking_date) [out.booking_date, out.value_date] = [out.value_date, out.booking_date];
  if (quirks.datedIds && booked) {
    const { prefix, sequenceDigits } = quirks.datedIds;
    out.entry_reference = `${prefix}${booked.day.replaceAll('-', '')}${String(booked.place).padStart(sequenceDigits, '0')}`;
    out.transaction_id = out.entry_reference;
  }
  if (quirks.idPrefix) {
    if (out.entry_reference !== undefined) out.entry_reference = `${quirks.idPrefix}${out.entry_reference}`;
    if (out.transaction_id !== undefined) out.transaction_id = `${quirks.idPrefix}${out.transaction_id}`;
  }
  if (quirks.counterpartyInRemittance) {
    const outgoing = out.credit_debit_indicator === 'DBIT';
    const name = (outgoing ? out.creditor : out.debtor)?.name;
    delete out.creditor;
    delete out.debtor;
    const who = name ? `${outgoing ? 'ODBIORCA' : 'NADAWCA'}: ${name}; ` : '';
    out.remittance_information = [`${who}TYTUŁ: ${out.remittance_information.join(' ')}`];
  }
  if (quirks.withoutBalanceAfter) delete out.balance_after_transaction;
  return out;
}
