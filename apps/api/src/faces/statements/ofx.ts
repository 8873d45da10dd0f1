/**
 * OFX bank statements: 2.2 (XML) and 1.02 (SGML, for older importers), from one element tree
 * written by the XML builder (which escapes `&`, `<`, `>`, the only escapes OFX defines), streamed (`xml.ts`): the document
 * around `BANKTRANLIST`'s transactions once, then the transactions a page at a time. The 1.02 body
 * is the same text with the closing tags of its leaf elements dropped, as SGML OFX writes it (every
 * chunk holds whole elements, so each leaf is whole on its line). `FITID` is the transaction id;
 * `NAME` (a payment's other side, else the merchant, else the description) is cut to OFX's 32
 * characters, `MEMO` to 255; a payment's EndToEndId is `REFNUM` and the other side's IBAN
 * `BANKACCTTO`. OFX's
 * `ACCTID` holds at most 22 characters, so it carries the NRB's 16-digit account number and
 * `BANKID` Sandbank's sort code; the IBAN's check digits are in `ACCTKEY`.
 */
import { nrbOf, rateWithin, type StatementEntry, type StatementHead } from '@sandbank/core';
import { extractIBAN } from 'ibantools';
import { codesOf } from './codes.ts';
import { oneLine, signedDecimal, truncate } from './mapping.ts';
import type { StatementSource } from './source.ts';
import { ENTRIES_HERE, type XmlFrame, type XmlTree, xmlFrame } from './xml.ts';

const NAME_MAX = 32;
const MEMO_MAX = 255;
const REFNUM_MAX = 32;
const BANKID_MAX = 9;
const ACCTID_MAX = 22;
const day = (value: string) => value.replaceAll('-', '');
/** An OFX date-time of an instant, in UTC: `YYYYMMDDHHMMSS.XXX[0:GMT]`. */
const instant = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').replace('Z', '')}[0:GMT]`;
const STATUS: XmlTree = { CODE: '0', SEVERITY: 'INFO' };

function frame(head: StatementHead): XmlFrame {
  const { account, period } = head;
  const nrb = nrbOf(account.iban);
  return xmlFrame(
    {
      OFX: {
        SIGNONMSGSRSV1: {
          SONRS: {
            STATUS,
            DTSERVER: instant(head.createdAt),
            LANGUAGE: 'POL',
            FI: { ORG: 'Sandbank', FID: nrb.slice(2, 10) },
          },
        },
        BANKMSGSRSV1: {
          STMTTRNRS: {
            TRNUID: '0',
            STATUS,
            STMTRS: {
              CURDEF: account.currency,
              BANKACCTFROM: {
                BANKID: nrb.slice(2, 10),
                ACCTID: nrb.slice(10),
                ACCTTYPE: 'CHECKING',
                ACCTKEY: account.iban.slice(2, 4),
              },
              BANKTRANLIST: { DTSTART: day(period.from), DTEND: day(period.to), STMTTRN: ENTRIES_HERE },
              LEDGERBAL: { BALAMT: signedDecimal(head.closing, account.currency), DTASOF: day(period.to) },
              AVAILBAL: { BALAMT: signedDecimal(head.available, account.currency), DTASOF: day(period.to) },
            },
          },
        },
      },
    },
    'STMTTRN',
    'ofx',
  );
}

/**
 * A payment's other side as OFX's BANKACCTTO, laid out as our own account is (BANKACCTFROM): BANKID
 * the bank's identifier inside the IBAN (ibantools: a Polish IBAN's 8-digit settlement number, a
 * German BLZ, a French bank code), ACCTID the rest of its BBAN (at most 22 characters), ACCTKEY its
 * check digits.
 */
function accountTo(iban: string): XmlTree {
  const { bban = iban.slice(4), bankIdentifier, branchIdentifier } = extractIBAN(iban);
  const bankId = bankIdentifier ?? branchIdentifier ?? '';
  const rest = bankId && bban.startsWith(bankId) ? bban.slice(bankId.length) : bban;
  return {
    BANKID: bankId.slice(0, BANKID_MAX) || iban.slice(0, 2),
    ACCTID: rest.slice(0, ACCTID_MAX),
    ACCTTYPE: 'CHECKING',
    ACCTKEY: iban.slice(2, 4),
  };
}

/** One STMTTRN, its elements in OFX's order (… REFNUM, NAME, BANKACCTTO, MEMO, ORIGCURRENCY). */
function transaction(entry: StatementEntry, currency: string): XmlTree {
  const trn: XmlTree = {
    TRNTYPE: codesOf(entry).ofx,
    DTPOSTED: day(entry.bookingDate),
    DTUSER: day(entry.valueDate),
    TRNAMT: signedDecimal(entry.amount, currency),
    FITID: entry.id,
  };
  // A payment: its EndToEndId as the reference, the other side's name as NAME and its account as BANKACCTTO.
  const reference = oneLine(entry.endToEndId ?? '');
  if (reference) trn.REFNUM = truncate(reference, REFNUM_MAX);
  const description = oneLine(entry.description);
  const name = oneLine(entry.counterparty?.name ?? entry.merchant ?? '') || description;
  if (name) trn.NAME = truncate(name, NAME_MAX);
  if (entry.counterparty?.iban) trn.BANKACCTTO = accountTo(entry.counterparty.iban);
  if (description) trn.MEMO = truncate(description, MEMO_MAX);
  // A card payment in another currency: TRNAMT stays in CURDEF; CURRATE is CURDEF per 1 CURSYM (the merchant's).
  if (entry.conversion) {
    trn.ORIGCURRENCY = {
      CURRATE: rateWithin(entry.conversion.exchangeRate, { totalDigits: 11, fractionDigits: 10 }),
      CURSYM: entry.conversion.originalCurrency,
    };
  }
  return trn;
}

async function* body(source: StatementSource): AsyncGenerator<string> {
  const tree = frame(source.head);
  const { currency } = source.head.account;
  yield tree.head;
  for await (const page of source.pages) yield tree.fragment(page.map((entry) => transaction(entry, currency)));
  yield tree.tail;
}

export async function* writeOfx2(source: StatementSource): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n';
  yield* body(source);
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
export async function* writeOfx1(source: StatementSource): AsyncGenerator<string> {
  yield `${SGML_HEADER.join('\r\n')}\r\n\r\n`;
  for await (const chunk of body(source)) yield chunk.replace(/<([A-Z0-9.]+)>([^<\n]*)<\/\1>/g, '<$1>$2').replace(/\n/g, '\r\n');
}
