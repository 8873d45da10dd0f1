/**
 * SWIFT MT940 as Polish banks write it: `:25:` carries the IBAN; `:86:` opens with a 3-digit
 * operation code, then `<NN` subfields — `<00` the operation, `<20`–`<25` the description in parts
 * of 27 characters, `<27`–`<28` the counterparty (a payment's other side, else the merchant), `<38`
 * a payment's other side's IBAN; `:61:`'s customer reference is a payment's EndToEndId when it fits
 * (16 plain characters), else the external id, else NONREF. Lines end with CRLF; `:86:` holds
 * at most 6 lines of 65 characters. UTF-8 by default; `cp852` and `windows-1250` as the banks ship
 * it, encoded by iconv-lite's stream (in the router). The text keeps letters, digits, Polish letters and SWIFT punctuation:
 * `<` and `>` become `(` and `)` (so no text can open a subfield), accents outside Polish fall to
 * their base letter, and anything else (emoji, symbols) is dropped.
 */
import type { StatementEntry } from '@sandbank/core';
import { codesOf } from './codes.ts';
import { decimal, oneLine, truncate } from './mapping.ts';
import type { StatementSource } from './source.ts';

export const MT940_ENCODINGS = ['utf-8', 'cp852', 'windows-1250'] as const;
export type Mt940Encoding = (typeof MT940_ENCODINGS)[number];

const SUBFIELD = 27;
const LINE = 65;
const MAX_LINES = 6;
const KEPT = /[A-Za-z0-9ĄĆĘŁŃÓŚŹŻąćęłńóśźż /\-?:().,'+"&;=!%*_@#]/u;

/** Text in MT940's characters (see the module header). */
function swiftText(value: string): string {
  let out = '';
  for (const char of oneLine(value)) {
    if (KEPT.test(char)) out += char;
    else if (char === '<') out += '(';
    else if (char === '>') out += ')';
    else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      if (/^[A-Za-z]$/.test(base)) out += base;
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Parts of at most 27 characters, at most `count` of them; a longer text is cut, ending `...`. */
function parts(value: string, count: number): string[] {
  const text = truncate(swiftText(value), SUBFIELD * count, true);
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += SUBFIELD) out.push(chars.slice(i, i + SUBFIELD).join(''));
  return out;
}

/** `:86:` content, wrapped in lines of 65 that never start with `:` or `-` (a tag or the end of the message). */
function field86(
  entry: Pick<StatementEntry, 'amount' | 'category' | 'merchant' | 'description' | 'reversalOf'> &
    Partial<Pick<StatementEntry, 'counterparty'>>,
): string[] {
  const { operation } = codesOf(entry);
  let content = `${operation.code}<00${operation.name}`;
  parts(entry.description, 6).forEach((part, i) => {
    content += `<${20 + i}${part}`;
  });
  const party = entry.counterparty?.name ?? entry.merchant;
  if (party) {
    parts(party, 2).forEach((part, i) => {
      content += `<${27 + i}${part}`;
    });
  }
  const iban = entry.counterparty?.iban;
  if (iban && /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(iban)) content += `<38${iban}`;
  const chars = [...content];
  const lines: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = Math.min(start + LINE, chars.length);
    while (end < chars.length && end > start + 1 && /[:-]/.test(chars[end] ?? '')) end--;
    lines.push(chars.slice(start, end).join(''));
    start = end;
  }
  // Unreachable: at most 3 + 3 + the operation's name + 6 × 30 + 2 × 30 + 37 characters, well within 6 × 65.
  if (lines.length > MAX_LINES) throw new Error('An :86: field outgrew six lines');
  return lines;
}

const yymmdd = (day: string) => day.slice(2).replaceAll('-', '');
const mark = (minor: number) => (minor < 0 ? 'D' : 'C');
const balance = (minor: number, day: string, currency: string) =>
  `${mark(minor)}${yymmdd(day)}${currency}${decimal(minor, currency, ',')}`;

/** `:61:` customer reference (16x): the external id when it is plain, else NONREF. */
const customerReference = (entry: Pick<StatementEntry, 'externalTxnId' | 'endToEndId'>) =>
  [entry.endToEndId, entry.externalTxnId].find((id) => id && /^[A-Za-z0-9]{1,16}$/.test(id)) ?? 'NONREF';

/**
 * The file as text, a page of entries at a time; the router encodes it (`cp852`, `windows-1250`)
 * with iconv-lite's encoding stream. Every chunk ends with CRLF.
 */
export async function* writeMt940(source: StatementSource): AsyncGenerator<string> {
  const { head } = source;
  const { account, period } = head;
  const day = yymmdd(period.to);
  yield lines([
    `:20:SB${day}`,
    `:25:/${account.iban}`,
    `:28C:${day.slice(2)}/1`,
    `:60F:${balance(head.opening, period.from, account.currency)}`,
  ]);
  for await (const page of source.pages) {
    const out: string[] = [];
    for (const entry of page) {
      const { swift } = codesOf(entry);
      const bankReference = entry.id.replaceAll('-', '').slice(-16);
      out.push(
        `:61:${yymmdd(entry.valueDate)}${entry.bookingDate.slice(5).replace('-', '')}${mark(entry.amount)}${decimal(entry.amount, account.currency, ',')}${swift}${customerReference(entry)}//${bankReference}`,
        `:86:${field86(entry).join('\r\n')}`,
      );
    }
    if (out.length > 0) yield lines(out);
  }
  yield lines([
    `:62F:${balance(head.closing, period.to, account.currency)}`,
    `:64:${balance(head.available, period.to, account.currency)}`,
    '-',
  ]);
}

const lines = (list: string[]) => `${list.join('\r\n')}\r\n`;
