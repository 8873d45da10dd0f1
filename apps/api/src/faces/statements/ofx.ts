/**
 * OFX bank statements: 2.2 (XML) and 1.02 (SGML, for older importers), from one element tree built
 * with xmlbuilder2 (which escapes `&`, `<`, `>`). The 1.02 body is the same tree with the closing
 * tags of its leaf elements dropped, as SGML OFX writes it. `FITID` is the transaction id; `NAME`
 * (the merchant, else the description) is cut to OFX's 32 characters, `MEMO` to 255. OFX's
 * `ACCTID` holds at most 22 characters, so it carries the NRB's 16-digit account number and
 * `BANKID` Sandbank's sort code; the IBAN's check digits are in `ACCTKEY`.
 */
import { nrbOf, type Statement, type StatementEntry } from '@sandbank/core';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { codesOf } from './codes.ts';
import { oneLine, signedDecimal, truncate } from './wire.ts';

const NAME_MAX = 32;
const MEMO_MAX = 255;
const day = (value: string) => value.replaceAll('-', '');
/** An OFX date-time of an instant, in UTC: `YYYYMMDDHHMMSS.XXX[0:GMT]`. */
const instant = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').replace('Z', '')}[0:GMT]`;

function body(statement: Statement): XMLBuilder {
  const { account, period } = statement;
  const nrb = nrbOf(account.iban);
  const ofx = create().ele('OFX');
  const sonrs = ofx.ele('SIGNONMSGSRSV1').ele('SONRS');
  status(sonrs);
  sonrs.ele('DTSERVER').txt(instant(statement.createdAt));
  sonrs.ele('LANGUAGE').txt('POL');
  sonrs.ele('FI').ele('ORG').txt('Sandbank').up().ele('FID').txt(nrb.slice(2, 10));
  const trnrs = ofx.ele('BANKMSGSRSV1').ele('STMTTRNRS');
  trnrs.ele('TRNUID').txt('0');
  status(trnrs);
  const stmtrs = trnrs.ele('STMTRS');
  stmtrs.ele('CURDEF').txt(account.currency);
  const from = stmtrs.ele('BANKACCTFROM');
  from.ele('BANKID').txt(nrb.slice(2, 10));
  from.ele('ACCTID').txt(nrb.slice(10));
  from.ele('ACCTTYPE').txt('CHECKING');
  from.ele('ACCTKEY').txt(account.iban.slice(2, 4));
  const list = stmtrs.ele('BANKTRANLIST');
  list.ele('DTSTART').txt(day(period.from));
  list.ele('DTEND').txt(day(period.to));
  for (const entry of statement.entries) transaction(list, entry);
  stmtrs.ele('LEDGERBAL').ele('BALAMT').txt(signedDecimal(statement.closing)).up().ele('DTASOF').txt(day(period.to));
  stmtrs.ele('AVAILBAL').ele('BALAMT').txt(signedDecimal(statement.available)).up().ele('DTASOF').txt(day(period.to));
  return ofx;
}

function status(parent: XMLBuilder): void {
  parent.ele('STATUS').ele('CODE').txt('0').up().ele('SEVERITY').txt('INFO');
}

function transaction(list: XMLBuilder, entry: StatementEntry): void {
  const trn = list.ele('STMTTRN');
  trn.ele('TRNTYPE').txt(codesOf(entry).ofx);
  trn.ele('DTPOSTED').txt(day(entry.bookingDate));
  trn.ele('DTUSER').txt(day(entry.valueDate));
  trn.ele('TRNAMT').txt(signedDecimal(entry.amount));
  trn.ele('FITID').txt(entry.id);
  const description = oneLine(entry.description);
  const name = oneLine(entry.merchant ?? '') || description;
  if (name) trn.ele('NAME').txt(truncate(name, NAME_MAX));
  if (description) trn.ele('MEMO').txt(truncate(description, MEMO_MAX));
}

export function writeOfx2(statement: Statement): string {
  const tree = body(statement).end({ prettyPrint: true, headless: true });
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n${tree}\n`;
}

const SGML_HEADER = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'SECURITY:NONE',
  'ENCODING:UTF-8',
  'CHARSET:NONE',
  'COMPRESSION:NONE',
  'OLDFILEUID:NONE',
  'NEWFILEUID:NONE',
];

/** OFX 1.02: the SGML header, then the tree with leaf elements unclosed (their text is escaped, so it holds no `<`). */
export function writeOfx1(statement: Statement): string {
  const tree = body(statement).end({ prettyPrint: true, headless: true });
  const sgml = tree.replace(/<([A-Z0-9.]+)>([^<\n]*)<\/\1>/g, '<$1>$2');
  return `${SGML_HEADER.join('\r\n')}\r\n\r\n${sgml.replace(/\n/g, '\r\n')}\r\n`;
}
