/**
 * The one mapping between the world and GoCardless's wire format (docs/faces/gocardless.md), each conversion once:
 * - money: integer minor units → GoCardless's decimal string in major units with its sign, with
 *   the places of the account's currency (`"-12.34"` PLN, `"-1234"` JPY, `"-1.234"` KWD), computed
 *   on integers, so 0.01 and 10^13 minor units are exact and 0 is `"0.00"`;
 * - dates: local dates in Europe/Warsaw of the world's instants; `bookingDateTime` the instant;
 * - ids: `transactionId` is the Sandbank transaction's id (the same pending and booked),
 *   `internalTransactionId` a hash of it and the linked account's face id;
 * - the institution's quirks (institutions.ts), applied here as the last step of a transaction.
 */
import { createHash } from 'node:crypto';
import type {
  Agreement,
  EntryConversion,
  LinkedAccount,
  PendingEntry,
  Requisition,
  Statement,
  StatementEntry,
} from '@sandbank/core';
import { ibanOf, minorToDecimal, nrbOf, SANDBANK_BIC } from '@sandbank/core';
import type { Quirks } from '../personalities.ts';
import type { Institution } from './institutions.ts';

const ZONE = 'Europe/Warsaw';
const DAY_MS = 86_400_000;

/** Minor units → GoCardless's amount string by the currency's exponent, exact, never "-0.00". */
export function amountOf(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not a safe integer amount: ${minor}`);
  return minorToDecimal(minor, currency);
}

const warsawDay = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The local date (YYYY-MM-DD) in Europe/Warsaw of an instant. */
export const localDate = (instant: Date): string => warsawDay.format(instant);

/** A calendar date `days` days later (earlier when negative). */
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const timestamp = (instant: Date) => instant.toISOString();

export const toAgreementWire = (agreement: Agreement) => ({
  id: agreement.id,
  created: timestamp(agreement.createdAt),
  institution_id: agreement.institutionId,
  max_historical_days: agreement.maxHistoricalDays,
  access_valid_for_days: agreement.accessValidForDays,
  access_scope: agreement.accessScope,
  accepted: agreement.acceptedAt && timestamp(agreement.acceptedAt),
  reconfirmation: false,
});

export const toRequisitionWire = (requisition: Requisition, link: string) => ({
  id: requisition.id,
  created: timestamp(requisition.createdAt),
  redirect: requisition.redirect,
  status: requisition.status,
  institution_id: requisition.institutionId,
  agreement: requisition.agreement.id,
  reference: requisition.reference,
  accounts: requisition.accounts,
  user_language: requisition.userLanguage.toUpperCase(),
  link,
  // No `ssn`: the live service sends null, which the document's string type does not allow.
  account_selection: false,
  redirect_immediate: false,
});

export const toInstitutionWire = (institution: Institution) => ({
  id: institution.id,
  name: institution.name,
  bic: institution.bic,
  transaction_total_days: String(institution.transactionTotalDays),
  max_access_valid_for_days: String(institution.maxAccessValidForDays),
  countries: institution.countries,
  logo: `https://sandbank.invalid/institutions/${institution.id}.png`,
});

export const toAccountWire = (account: LinkedAccount) => ({
  id: account.id,
  created: timestamp(account.createdAt),
  // Absent until the account is first read: the document's type allows no null.
  ...(account.lastAccessed ? { last_accessed: timestamp(account.lastAccessed) } : {}),
  iban: ibanOf(account.accountId),
  bban: nrbOf(ibanOf(account.accountId)),
  institution_id: account.institutionId,
  status: account.expired ? 'EXPIRED' : 'READY',
  owner_name: account.ownerEmail,
});

export const toDetailsWire = (account: LinkedAccount) => ({
  account: {
    resourceId: account.accountId,
    iban: ibanOf(account.accountId),
    bban: nrbOf(ibanOf(account.accountId)),
    bic: SANDBANK_BIC,
    currency: account.currency,
    ownerName: account.ownerEmail,
    name: account.accountName,
    product: 'Sandbank sandbox account',
    cashAccountType: 'CACC',
    status: account.open ? 'enabled' : 'deleted',
  },
});

/** A statement of today alone: yesterday's closing booked balance, today's booked and available. */
export function toBalancesWire(today: Statement) {
  const money = (minor: number) => ({ amount: amountOf(minor, today.account.currency), currency: today.account.currency });
  const day = today.period.to;
  return {
    balances: [
      { balanceAmount: money(today.opening), balanceType: 'closingBooked', referenceDate: addDays(day, -1) },
      { balanceAmount: money(today.closing), balanceType: 'interimBooked', referenceDate: day },
      { balanceAmount: money(today.available), balanceType: 'interimAvailable', referenceDate: day },
    ],
  };
}

/** Our category → the bank's own transaction code, as Polish banks show a type of operation. */
function bankCode(entry: {
  amount: number;
  category: string | null;
  merchant: string | null;
  reversalOf?: string | null;
}): string {
  if (entry.reversalOf) return 'REVERSAL';
  if (entry.category === 'salary') return 'SALARY';
  if (entry.category === 'cash') return entry.amount < 0 ? 'CASH_WITHDRAWAL' : 'CASH_DEPOSIT';
  if (entry.amount < 0 && entry.merchant && entry.category !== 'transfer') return 'CARD_PAYMENT';
  return entry.amount < 0 ? 'TRANSFER_OUT' : 'TRANSFER_IN';
}

type Wire = Record<string, unknown>;

/** The fields every transaction has, before the institution's quirks. */
function baseTransaction(linkedAccountId: string, currency: string, entry: StatementEntry | PendingEntry): Wire {
  // A payment names its other side (docs/concepts/payments.md): creditor of money out, debtor of money in.
  const side = entry.amount < 0 ? 'creditor' : 'debtor';
  const name = entry.counterparty?.name ?? entry.merchant;
  const iban = entry.counterparty?.iban;
  const counterparty = {
    ...(name ? { [`${side}Name`]: name } : {}),
    ...(iban ? { [`${side}Account`]: { iban } } : {}),
    ...(entry.endToEndId ? { endToEndId: entry.endToEndId } : {}),
  };
  return {
    transactionId: entry.id,
    internalTransactionId: createHash('sha256').update(`${linkedAccountId}:${entry.id}`).digest('hex').slice(0, 32),
    transactionAmount: { amount: amountOf(entry.amount, currency), currency },
    ...counterparty,
    remittanceInformationUnstructured: entry.description,
    proprietaryBankTransactionCode: bankCode(entry),
    ...(entry.conversion ? { currencyExchange: [currencyExchangeOf(entry.conversion, currency, entry.valueDate)] } : {}),
  };
}

/**
 * A card payment in another currency, as GoCardless's `currencyExchange` (its CurrencyExchangeSchema, ISO 20022's
 * CcyXchg): the rate is the account's currency (target) per 1 unit of the merchant's (source, also the unit
 * currency), quoted on the value date; `instructedAmount` is what the merchant charged, signed like the amount.
 */
const currencyExchangeOf = (conversion: EntryConversion, currency: string, valueDate: string) => ({
  sourceCurrency: conversion.originalCurrency,
  exchangeRate: conversion.exchangeRate,
  unitCurrency: conversion.originalCurrency,
  targetCurrency: currency,
  quotationDate: valueDate,
  instructedAmount: {
    amount: amountOf(conversion.originalAmount, conversion.originalCurrency),
    currency: conversion.originalCurrency,
  },
});

/** Where a booked entry stands among its booking day's (1 = the day's first posting), for the bank's own ids. */
function dailySequence(booked: StatementEntry[]): number[] {
  const seen = new Map<string, number>();
  return booked.map((entry) => {
    const place = (seen.get(entry.bookingDate) ?? 0) + 1;
    seen.set(entry.bookingDate, place);
    return place;
  });
}

interface Facts {
  pending: boolean;
  outgoing: boolean;
  /** The booking day and the entry's place in it, for `datedIds` (booked entries only). */
  booked?: { day: string; place: number };
}

/** Each quirk is one step on the wire object; the order is fixed so two quirks compose the same way every time. */
function applyQuirks(wire: Wire, quirks: Quirks, { pending, outgoing, booked }: Facts): Wire {
  const out = { ...wire };
  if (quirks.swapDates && !pending) [out.bookingDate, out.valueDate] = [out.valueDate, out.bookingDate];
  if (quirks.datedIds && booked) {
    const { prefix, sequenceDigits } = quirks.datedIds;
    out.transactionId = `${prefix}${booked.day.replaceAll('-', '')}${String(booked.place).padStart(sequenceDigits, '0')}`;
  }
  if (quirks.idPrefix) out.transactionId = `${quirks.idPrefix}${String(out.transactionId)}`;
  if (quirks.pendingWithoutId && pending) delete out.transactionId;
  if (quirks.counterpartyInRemittance) {
    const name = out.creditorName ?? out.debtorName;
    delete out.creditorName;
    delete out.debtorName;
    delete out.creditorAccount;
    delete out.debtorAccount;
    const who = name ? `${outgoing ? 'ODBIORCA' : 'NADAWCA'}: ${String(name)}; ` : '';
    out.remittanceInformationUnstructured = `${who}TYTUŁ: ${String(out.remittanceInformationUnstructured)}`;
  }
  if (quirks.remittanceAsArray) {
    out.remittanceInformationUnstructuredArray = [out.remittanceInformationUnstructured];
    delete out.remittanceInformationUnstructured;
  }
  if (quirks.withoutBalanceAfter) delete out.balanceAfterTransaction;
  return out;
}

/** Booked (newest first, with the booked balance after each) and pending transactions as GoCardless shows them. */
export function toTransactionsWire(account: LinkedAccount, quirks: Quirks, booked: StatementEntry[], pending: PendingEntry[]) {
  const { currency } = account;
  const places = dailySequence(booked);
  return {
    transactions: {
      booked: booked
        .map((entry, index) =>
          applyQuirks(
            {
              ...baseTransaction(account.id, currency, entry),
              bookingDate: entry.bookingDate,
              valueDate: entry.valueDate,
              bookingDateTime: timestamp(entry.postedAt),
              balanceAfterTransaction: {
                balanceAmount: { amount: amountOf(entry.balanceAfter, currency), currency },
                balanceType: 'interimBooked',
              },
            },
            quirks,
            { pending: false, outgoing: entry.amount < 0, booked: { day: entry.bookingDate, place: places[index] ?? 1 } },
          ),
        )
        .reverse(),
      pending: pending
        .map((entry) =>
          applyQuirks({ ...baseTransaction(account.id, currency, entry), valueDate: entry.valueDate }, quirks, {
            pending: true,
            outgoing: entry.amount < 0,
          }),
        )
        .reverse(),
    },
  };
}
