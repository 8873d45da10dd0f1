/**
 * The statement face's conversions at the edge, each in one place: minor units to a format's
 * decimal, and free text (descriptions, merchants, names) to what a format can carry.
 */

/**
 * |minor| as a decimal with two places and the given separator (`.` for XML, OFX and CSV, `,` for
 * MT940): 1 → "0.01", 10^13 → "100000000000.00"; never a sign, so never a negative zero.
 * Direction travels separately (CdtDbtInd, C/D) — `signedDecimal` puts it back where a format wants it.
 */
export function decimal(minor: number, separator: '.' | ',' = '.'): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not a safe integer of minor units: ${minor}`);
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${digits.slice(0, -2)}${separator}${digits.slice(-2)}`;
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

/** `-12.34` for a debit, `12.34` for a credit, `0.00` for zero (OFX `TRNAMT`, CSV). */
export const signedDecimal = (minor: number) => (minor < 0 ? `-${decimal(minor)}` : decimal(minor));
