/**
 * A file's amount text (`xs:decimal`: `12.34`, `+5`, `.5`, `7.` and `12.340` are all valid) in minor
 * units of its currency, in bigint: never a `Number` on the way, so 10^13 units and beyond are exact.
 * An amount with more significant decimals than the currency's minor unit (ISO 4217's exponent, from
 * `currencies/`) is refused: `0.001` PLN or `1.5` JPY cannot be paid.
 */
import { currencyExponent } from '../currencies/currencies.ts';

const DECIMAL = /^\+?(\d*)(?:\.(\d*))?$/;

export type MinorAmount = { ok: true; minor: bigint } | { ok: false; message: string };

export function decimalToMinor(text: string, currency: string): MinorAmount {
  let exponent: number;
  try {
    exponent = currencyExponent(currency);
  } catch {
    return { ok: false, message: `Currency ${currency} is not supported` };
  }
  const match = DECIMAL.exec(text.trim());
  const whole = match?.[1] ?? '';
  const fraction = (match?.[2] ?? '').replace(/0+$/, '');
  if (!match || (whole === '' && (match[2] ?? '') === '')) return { ok: false, message: `"${text}" is not a decimal amount` };
  if (fraction.length > exponent) {
    return {
      ok: false,
      message: `${text.trim()} ${currency} has ${fraction.length} decimal places; ${currency} has ${exponent}`,
    };
  }
  return { ok: true, minor: BigInt(whole || '0') * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0') };
}
