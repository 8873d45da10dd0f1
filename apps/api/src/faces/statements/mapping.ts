/**
 * The statement face's conversions at the edge, each in one place: minor units to a format's
 * decimal, and free text (descriptions, merchants, names) to what a format can carry.
 */
import { minorToDecimal } from '@sandbank/core';

/**
 * |minor| as a decimal with the currency's places (ISO 4217 exponent: PLN 2, JPY 0, KWD 3) and the
 * given separator (`.` for XML, OFX and CSV, `,` for MT940): 1 PLN → "0.01", 1 KWD → "0.001",
 * 1 JPY → "1", 10^13 PLN → "100000000000.00"; never a sign, so never a negative zero. MT940's amount
 * always has its comma (SWIFT's `15d`), so a yen amount there is "1,". Direction travels separately
 * (CdtDbtInd, C/D) — `signedDecimal` puts it back where a format wants it.
 */
export function decimal(minor: number, currency: string, separator: '.' | ',' = '.'): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not a safe integer of minor units: ${minor}`);
  const text = minorToDecimal(Math.abs(minor), currency, separator);
  return separator === ',' && !text.includes(',') ? `${text},` : text;
}

/** Control characters (C0, DEL, C1) and Unicode line/paragraph separators, which no statement line may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu;

/** One line of text: controls and line breaks become spaces, runs of spaces one, trimmed, NFC. */
export const oneLine = (text: string) => text.normalize('NFC').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();

/**
 * At most `max` characters (code points, so an emoji is never cut in half); a cut text ends with
 * `…` (or `...` when `ascii`), counted within `max`.
 */
export function truncate(text: string, max: number, ascii = false): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const ellipsis = ascii ? '...' : '…';
  return chars.slice(0, max - [...ellipsis].length).join('') + ellipsis;
}

/** A safe file-name part: letters, digits, `-` and `_` only. */
export const fileNamePart = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '');

/** `-12.34` for a debit, `12.34` for a credit, `0.00` for zero (OFX `TRNAMT`, CSV), by the currency's exponent. */
export const signedDecimal = (minor: number, currency: string) =>
  minor < 0 ? `-${decimal(minor, currency)}` : decimal(minor, currency);
