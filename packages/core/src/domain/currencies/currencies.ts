/**
 * The currencies an account may hold: the supported codes (packages/schemas, `CURRENCIES`) with their
 * ISO 4217 names and minor-unit exponents, read from the `currency-codes` package (the ISO 4217
 * maintenance agency's list, docs/reference/libraries.md), never typed by hand.
 */
import { CURRENCIES, type Currency } from '@sandbank/schemas';
import currencyCodes from 'currency-codes';

export interface CurrencyInfo {
  code: Currency;
  name: string;
  /** Digits after the decimal point of the minor unit: PLN 2 (grosz), JPY 0, KWD 3 (fils). */
  exponent: number;
}

function lookUp(code: Currency): CurrencyInfo {
  const record = currencyCodes.code(code);
  if (!record || !Number.isInteger(record.digits) || record.digits < 0) {
    throw new Error(`ISO 4217 has no minor unit for ${code}`);
  }
  return { code, name: record.currency, exponent: record.digits };
}

/** Read once at start-up: a supported code the library does not know fails the process, not a request. */
const TABLE: ReadonlyMap<Currency, CurrencyInfo> = new Map(CURRENCIES.map((code) => [code, lookUp(code)]));

/** Every supported currency, in the order of `CURRENCIES`. */
export const supportedCurrencies = (): CurrencyInfo[] => [...TABLE.values()];

function currencyInfo(code: string): CurrencyInfo {
  const info = TABLE.get(code as Currency);
  if (!info) throw new Error(`Unsupported currency ${code}`);
  return info;
}

/** The minor-unit exponent of a supported currency (JPY 0, PLN 2, KWD 3). */
export const currencyExponent = (code: string): number => currencyInfo(code).exponent;
