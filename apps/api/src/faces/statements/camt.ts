/**
 * ISO 20022 camt.053 (BankToCustomerStatement) and camt.052 (BankToCustomerAccountReport), in
 * versions 001.02 (the default, what most importers read) and 001.08. Streamed (`xml.ts`): the
 * document with its balances and `TxsSummry` first (the head's totals), then the entries a page
 * at a time. Free text is first made one line and cut to the schema's MaxNText; the builder
 * escapes it. Element order follows the XSDs of each version.
 */
import { type EntryConversion, type PendingEntry, rateWithin, type StatementEntry, type StatementHead } from '@sandbank/core';
import { codesOf } from './codes.ts';
import { decimal, oneLine, truncate } from './mapping.ts';
import type { StatementSource } from './source.ts';
import { ENTRIES_HERE, type XmlTree, xmlFrame } from './xml.ts';

export type CamtVersion = '02' | '08';
type Message = 'camt.053' | 'camt.052';

/** What a schema's MaxNText allows, in characters; cut text ends with `…`. */
const MAX = { ref: 35, accountName: 70, partyName: 140, remittance: 140, additional: 500 } as const;

const text = (value: string, max: number) => truncate(oneLine(value), max);
/** The transaction id in 32 hex digits: AcctSvcrRef is Max35Text, a hyphenated UUID is 36. */
const compactId = (id: string) => id.replaceAll('-', '');
const indicator = (minor: number) => (minor < 0 ? 'DBIT' : 'CRDT');

export async function* writeCamt(source: StatementSource, message: Message, version: CamtVersion): AsyncGenerator<string> {
  const v08 = version === '08';
  const { head } = source;
  const frame = xmlFrame(document(head, message, v08), 'Ntry');
  yield frame.head;
  for await (const page of source.pages)
    yield frame.fragment(page.map((entry) => entryTree(entry, head.account.currency, v08, 'BOOK')));
  if (message === 'camt.052') {
    yield frame.fragment(source.pending.map((entry) => entryTree(entry, head.account.currency, v08, 'PDNG')));
  }
  yield frame.tail;
}

function document(head: StatementHead, message: Message, v08: boolean): XmlTree {
  const { account, period } = head;
  const id = `${period.from.replaceAll('-', '')}${period.to.replaceAll('-', '')}${compactId(account.id).slice(-16)}`;
  const created = head.createdAt.toISOString();
  const statement: XmlTree = {
    Id: id,
    ElctrncSeqNb: String(sequenceNumber(period.to)),
    CreDtTm: created,
    FrToDt: { FrDtTm: `${period.from}T00:00:00`, ToDtTm: `${period.to}T23:59:59` },
    Acct: {
      Id: { IBAN: account.iban },
      Ccy: account.currency,
      Nm: text(account.name, MAX.accountName),
      Ownr: { Nm: text(account.ownerEmail, MAX.partyName) },
      Svcr: { FinInstnId: { [v08 ? 'BICFI' : 'BIC']: account.bic } },
    },
    // camt.052 carries the same balances: ISO allows any code there, and importers (AqBanking) read CLBD, not ITBD.
    Bal: [
      balance('OPBD', head.opening, account.currency, period.from),
      balance('CLBD', head.closing, account.currency, period.to),
      balance('CLAV', head.available, account.currency, period.to),
    ],
    TxsSummry: summary(head, account.currency, v08),
    Ntry: ENTRIES_HERE,
  };
  const ns = `urn:iso:std:iso:20022:tech:xsd:${message}.001.${v08 ? '08' : '02'}`;
  return {
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    Document: {
      '@xmlns': ns,
      [message === 'camt.053' ? 'BkToCstmrStmt' : 'BkToCstmrAcctRpt']: {
        GrpHdr: { MsgId: `SB${id}`, CreDtTm: created },
        [message === 'camt.053' ? 'Stmt' : 'Rpt']: statement,
      },
    },
  };
}

/** A statement's number in its year: the day of the year its period ends (one statement a day at most). */
function sequenceNumber(day: string): number {
  return Math.round((Date.parse(day) - Date.parse(`${day.slice(0, 4)}-01-01`)) / 86_400_000) + 1;
}

function balance(code: string, amount: number, currency: string, day: string): XmlTree {
  return {
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: { '@Ccy': currency, '#text': decimal(amount, currency) },
    CdtDbtInd: indicator(amount),
    Dt: { Dt: day },
  };
}

/** The booked entries' totals, from the head (so the summary precedes the entries it sums). */
function summary({ credits, debits }: StatementHead, currency: string, v08: boolean): XmlTree {
  const net = credits.sum - debits.sum;
  return {
    TtlNtries: {
      NbOfNtries: String(credits.count + debits.count),
      Sum: decimal(credits.sum + debits.sum, currency),
      ...(v08
        ? { TtlNetNtry: { Amt: decimal(net, currency), CdtDbtInd: indicator(net) } }
        : { TtlNetNtryAmt: decimal(net, currency), CdtDbtInd: indicator(net) }),
    },
    TtlCdtNtries: { NbOfNtries: String(credits.count), Sum: decimal(credits.sum, currency) },
    TtlDbtNtries: { NbOfNtries: String(debits.count), Sum: decimal(debits.sum, currency) },
  };
}

/**
 * A card payment in another currency: what the merchant charged (`InstdAmt`, in its currency, without sign: the
 * entry's CdtDbtInd tells) and the rate (`CcyXchg`: account currency per 1 unit of the source, the unit currency;
 * XchgRate is a BaseOneRate, at most 11 digits with 10 after the point, so the kept rate is rounded to fit).
 */
function amountDetails(conversion: EntryConversion, currency: string): XmlTree {
  return {
    InstdAmt: {
      Amt: { '@Ccy': conversion.originalCurrency, '#text': decimal(conversion.originalAmount, conversion.originalCurrency) },
      CcyXchg: {
        SrcCcy: conversion.originalCurrency,
        TrgtCcy: currency,
        UnitCcy: conversion.originalCurrency,
        XchgRate: rateWithin(conversion.exchangeRate, { totalDigits: 11, fractionDigits: 10 }),
      },
    },
  };
}

type EntryFields = Pick<
  StatementEntry,
  'id' | 'externalTxnId' | 'amount' | 'valueDate' | 'description' | 'merchant' | 'category' | 'conversion'
> &
  Partial<Pick<StatementEntry, 'bookingDate' | 'reversalOf' | 'counterparty' | 'endToEndId'>>;

function entryTree(entry: EntryFields | PendingEntry, currency: string, v08: boolean, status: 'BOOK' | 'PDNG'): XmlTree {
  const ref = compactId(entry.id);
  const { iso } = codesOf(entry);
  // A payment's own EndToEndId (docs/concepts/payments.md), else the transaction's external id.
  const endToEnd = oneLine(entry.endToEndId ?? entry.externalTxnId);
  const description = oneLine(entry.description);
  const details: XmlTree = {
    Refs: { AcctSvcrRef: ref, EndToEndId: endToEnd && [...endToEnd].length <= MAX.ref ? endToEnd : 'NOTPROVIDED' },
  };
  // Right after Refs, as both versions' TxDtls order it.
  if (entry.conversion) details.AmtDtls = amountDetails(entry.conversion, currency);
  // The other side: who was paid for a debit, who paid for a credit; a payment's with its IBAN.
  const partyName = entry.counterparty?.name ?? entry.merchant;
  const partyIban = entry.counterparty?.iban;
  if (partyName || partyIban) {
    const side = entry.amount < 0 ? 'Cdtr' : 'Dbtr';
    const related: XmlTree = {};
    if (partyName) {
      const name = { Nm: text(partyName, MAX.partyName) };
      related[side] = v08 ? { Pty: name } : name;
    }
    if (partyIban) related[`${side}Acct`] = { Id: { IBAN: partyIban } };
    details.RltdPties = related;
  }
  if (description) details.RmtInf = { Ustrd: truncate(description, MAX.remittance) };
  const tree: XmlTree = {
    NtryRef: ref,
    Amt: { '@Ccy': currency, '#text': decimal(entry.amount, currency) },
    CdtDbtInd: indicator(entry.amount),
    Sts: v08 ? { Cd: status } : status,
  };
  if ('bookingDate' in entry && entry.bookingDate) tree.BookgDt = { Dt: entry.bookingDate };
  tree.ValDt = { Dt: entry.valueDate };
  tree.AcctSvcrRef = ref;
  tree.BkTxCd = {
    Domn: { Cd: iso.domain, Fmly: { Cd: iso.family, SubFmlyCd: iso.subFamily } },
    Prtry: { Cd: entry.category ?? 'other' },
  };
  tree.NtryDtls = { TxDtls: details };
  if (description) tree.AddtlNtryInf = truncate(description, MAX.additional);
  return tree;
}
