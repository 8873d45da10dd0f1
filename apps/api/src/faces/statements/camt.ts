/**
 * ISO 20022 camt.053 (BankToCustomerStatement) and camt.052 (BankToCustomerAccountReport), in
 * versions 001.02 (the default, what most importers read) and 001.08. Built with xmlbuilder2, which
 * escapes every text; free text is first made one line and cut to the schema's MaxNText.
 * Element order follows the XSDs of each version.
 */
import type { PendingEntry, Statement, StatementEntry } from '@sandbank/core';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { codesOf } from './codes.ts';
import { decimal, oneLine, truncate } from './wire.ts';

export type CamtVersion = '02' | '08';
type Message = 'camt.053' | 'camt.052';

/** What a schema's MaxNText allows, in characters; cut text ends with `…`. */
const MAX = { ref: 35, accountName: 70, partyName: 140, remittance: 140, additional: 500 } as const;

const text = (value: string, max: number) => truncate(oneLine(value), max);
/** The transaction id in 32 hex digits: AcctSvcrRef is Max35Text, a hyphenated UUID is 36. */
const compactId = (id: string) => id.replaceAll('-', '');
const indicator = (minor: number) => (minor < 0 ? 'DBIT' : 'CRDT');

export function writeCamt(statement: Statement, message: Message, version: CamtVersion): string {
  const v08 = version === '08';
  const ns = `urn:iso:std:iso:20022:tech:xsd:${message}.001.${version}`;
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(ns, 'Document');
  const root = doc.ele(message === 'camt.053' ? 'BkToCstmrStmt' : 'BkToCstmrAcctRpt');
  const { account, period } = statement;
  const id = `${period.from.replaceAll('-', '')}${period.to.replaceAll('-', '')}${compactId(account.id).slice(-16)}`;
  const created = statement.createdAt.toISOString();
  root.ele('GrpHdr').ele('MsgId').txt(`SB${id}`).up().ele('CreDtTm').txt(created);

  const stmt = root.ele(message === 'camt.053' ? 'Stmt' : 'Rpt');
  stmt.ele('Id').txt(id);
  stmt.ele('ElctrncSeqNb').txt(String(sequenceNumber(period.to)));
  stmt.ele('CreDtTm').txt(created);
  const range = stmt.ele('FrToDt');
  range.ele('FrDtTm').txt(`${period.from}T00:00:00`);
  range.ele('ToDtTm').txt(`${period.to}T23:59:59`);

  const acct = stmt.ele('Acct');
  acct.ele('Id').ele('IBAN').txt(account.iban);
  acct.ele('Ccy').txt(account.currency);
  acct.ele('Nm').txt(text(account.name, MAX.accountName));
  acct.ele('Ownr').ele('Nm').txt(text(account.ownerEmail, MAX.partyName));
  acct
    .ele('Svcr')
    .ele('FinInstnId')
    .ele(v08 ? 'BICFI' : 'BIC')
    .txt(account.bic);

  balance(stmt, 'OPBD', statement.opening, statement.account.currency, period.from);
  // camt.052 carries the same balances: ISO allows any code there, and importers (AqBanking) read CLBD, not ITBD.
  balance(stmt, 'CLBD', statement.closing, statement.account.currency, period.to);
  balance(stmt, 'CLAV', statement.available, statement.account.currency, period.to);
  summary(stmt, statement.entries, v08);
  for (const entry of statement.entries) bookedEntry(stmt, entry, account.currency, v08);
  if (message === 'camt.052') for (const entry of statement.pending) pendingEntry(stmt, entry, account.currency, v08);
  return doc.end({ prettyPrint: true });
}

/** A statement's number in its year: the day of the year its period ends (one statement a day at most). */
function sequenceNumber(day: string): number {
  return Math.round((Date.parse(day) - Date.parse(`${day.slice(0, 4)}-01-01`)) / 86_400_000) + 1;
}

function balance(stmt: XMLBuilder, code: string, amount: number, currency: string, day: string): void {
  const bal = stmt.ele('Bal');
  bal.ele('Tp').ele('CdOrPrtry').ele('Cd').txt(code);
  bal.ele('Amt', { Ccy: currency }).txt(decimal(amount));
  bal.ele('CdtDbtInd').txt(indicator(amount));
  bal.ele('Dt').ele('Dt').txt(day);
}

function summary(stmt: XMLBuilder, entries: StatementEntry[], v08: boolean): void {
  const credits = entries.filter((entry) => entry.amount >= 0);
  const debits = entries.filter((entry) => entry.amount < 0);
  const sum = (list: StatementEntry[]) => list.reduce((total, entry) => total + Math.abs(entry.amount), 0);
  const net = sum(credits) - sum(debits);
  const totals = stmt.ele('TxsSummry').ele('TtlNtries');
  totals.ele('NbOfNtries').txt(String(entries.length));
  totals.ele('Sum').txt(decimal(sum(entries)));
  if (v08) totals.ele('TtlNetNtry').ele('Amt').txt(decimal(net)).up().ele('CdtDbtInd').txt(indicator(net));
  else totals.ele('TtlNetNtryAmt').txt(decimal(net)).up().ele('CdtDbtInd').txt(indicator(net));
  for (const [name, list] of [
    ['TtlCdtNtries', credits],
    ['TtlDbtNtries', debits],
  ] as const) {
    totals
      .up()
      .ele(name)
      .ele('NbOfNtries')
      .txt(String(list.length))
      .up()
      .ele('Sum')
      .txt(decimal(sum(list)));
  }
}

interface EntryFields {
  id: string;
  externalTxnId: string;
  amount: number;
  bookingDate?: string;
  valueDate: string;
  description: string;
  merchant: string | null;
  category: string | null;
  reversalOf?: string | null;
}

function bookedEntry(stmt: XMLBuilder, entry: StatementEntry, currency: string, v08: boolean): void {
  writeEntry(stmt, entry, currency, v08, 'BOOK');
}

function pendingEntry(stmt: XMLBuilder, entry: PendingEntry, currency: string, v08: boolean): void {
  writeEntry(stmt, entry, currency, v08, 'PDNG');
}

function writeEntry(stmt: XMLBuilder, entry: EntryFields, currency: string, v08: boolean, status: 'BOOK' | 'PDNG'): void {
  const ntry = stmt.ele('Ntry');
  const ref = compactId(entry.id);
  ntry.ele('NtryRef').txt(ref);
  ntry.ele('Amt', { Ccy: currency }).txt(decimal(entry.amount));
  ntry.ele('CdtDbtInd').txt(indicator(entry.amount));
  if (v08) ntry.ele('Sts').ele('Cd').txt(status);
  else ntry.ele('Sts').txt(status);
  if (entry.bookingDate) ntry.ele('BookgDt').ele('Dt').txt(entry.bookingDate);
  ntry.ele('ValDt').ele('Dt').txt(entry.valueDate);
  ntry.ele('AcctSvcrRef').txt(ref);
  const { iso } = codesOf(entry);
  const code = ntry.ele('BkTxCd');
  code.ele('Domn').ele('Cd').txt(iso.domain).up().ele('Fmly').ele('Cd').txt(iso.family).up().ele('SubFmlyCd').txt(iso.subFamily);
  code
    .ele('Prtry')
    .ele('Cd')
    .txt(entry.category ?? 'other');

  const details = ntry.ele('NtryDtls').ele('TxDtls');
  const refs = details.ele('Refs');
  refs.ele('AcctSvcrRef').txt(ref);
  const endToEnd = oneLine(entry.externalTxnId);
  refs.ele('EndToEndId').txt(endToEnd && [...endToEnd].length <= MAX.ref ? endToEnd : 'NOTPROVIDED');
  if (entry.merchant) {
    // The other side: who was paid for a debit, who paid for a credit.
    const parties = details.ele('RltdPties').ele(entry.amount < 0 ? 'Cdtr' : 'Dbtr');
    (v08 ? parties.ele('Pty') : parties).ele('Nm').txt(text(entry.merchant, MAX.partyName));
  }
  const description = oneLine(entry.description);
  if (description) details.ele('RmtInf').ele('Ustrd').txt(truncate(description, MAX.remittance));
  if (description) ntry.ele('AddtlNtryInf').txt(truncate(description, MAX.additional));
}
