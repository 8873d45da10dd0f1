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
