/**
 * Minor units ↔ decimal strings, by a currency's exponent, in bigint: the one conversion every face
 * uses at its edge (Plaid's and SimpleFIN's decimals, GoCardless's strings, the statements' amounts).
 * No `Number` arithmetic touches the value, so 10^13 minor units and beyond stay exact.
 */
import { currencyExponent } from './currencies.ts';

/**
 * `-1234` PLN → `"-12.34"`, `5` KWD → `"0.005"`, `7` JPY → `"7"`; zero is `"0.00"` (never `"-0"`).
 * `separator` is the decimal mark (MT940 writes a comma).
 */
export function minorToDecimal(minor: number | bigint, currency: string, separator = '.'): string {
  const exponent = currencyExponent(currency);
  const value = BigInt(minor);
  const abs = value < 0n ? -value : value;
  const sign = value < 0n ? '-' : '';
  if (exponent === 0) return `${sign}${abs}`;
  const scale = 10n ** BigInt(exponent);
  return `${sign}${abs / scale}${separator}${String(abs % scale).padStart(exponent, '0')}`;
}

/**
 * `"12.34"` PLN → `1234n`, `"0.005"` KWD → `5n`, `"7"` JPY → `7n`: an unsigned decimal string in major
 * units to minor units, or null when it is not one or has more places than the currency's minor unit
 * (`"1.5"` JPY, `"0.0001"` KWD) — a bank refuses an amount it cannot carry, it does not round it.
 */
export function decimalToMinor(text: string, currency: string): bigint | null {
  const match = /^(\d{1,20})(?:\.(\d{1,20}))?$/.exec(text);
  if (!match) return null;
  const exponent = currencyExponent(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return null;
  return BigInt(match[1] as string) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
}
