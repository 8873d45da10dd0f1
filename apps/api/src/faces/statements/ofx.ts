/**
 * OFX bank statements: 2.2 (XML) and 1.02 (SGML, for older importers), from one element tree
 * written by the XML builder (which escapes `&`, `<`, `>`, the only escapes OFX defines), streamed (`xml.ts`): the document
 * around `BANKTRANLIST`'s transactions once, then the transactions a page at a time. The 1.02 body
 * is the same text with the closing tags of its leaf elements dropped, as SGML OFX writes it (every
 * chunk holds whole elements, so each leaf is whole on its line). `FITID` is the transaction id;
 * `NAME` (the merchant, else the description) is cut to OFX's 32 characters, `MEMO` to 255. OFX's
 * `ACCTID` holds at most 22 characters, so it carries the NRB's 16-digit account number and
 * `BANKID` Sandbank's sort code; the IBAN's check digits are in `ACCTKEY`.
 */
import { nrbOf, rateWithin, type StatementEntry, type StatementHead } from '@sandbank/core';
import { codesOf } from './codes.ts';
import type { StatementSource } from './source.ts';
import { oneLine, signedDecimal, truncate } from './wire.ts';
import { ENTRIES_HERE, type XmlFrame, type XmlTree, xmlFrame } from './xml.ts';

const NAME_MAX = 32;
const MEMO_MAX = 255;
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

function transaction(entry: StatementEntry, currency: string): XmlTree {
  const trn: XmlTree = {
    TRNTYPE: codesOf(entry).ofx,
    DTPOSTED: day(entry.bookingDate),
    DTUSER: day(entry.valueDate),
    TRNAMT: signedDecimal(entry.amount, currency),
    FITID: entry.id,
  };
  const description = oneLine(entry.description);
  const name = oneLine(entry.merchant ?? '') || description;
  if (name) trn.NAME = truncate(name, NAME_MAX);
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
