/**
 * Converting an amount between currencies at a rate: the one place where a rate meets money.
 *
 * Rates are decimal strings (quote currency per 1 unit of the base) and the arithmetic is decimal.js
 * with 60 significant digits, far past any amount (10^13 minor units and beyond) times any rate we
 * keep, so the only rounding is the last step: to the target currency's minor unit, half away from
 * zero (`ROUND_HALF_UP` in decimal.js rounds ties away from zero, for negative amounts too). Never
 * a `Number` on the way.
 */
import { Decimal } from 'decimal.js';
import { currencyExponent } from './currencies.ts';

/** Our own Decimal, so another module's global settings never change what this one computes; every money or rate computation uses it. */
export const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });

const RATE = /^\d{1,12}(\.\d{1,20})?$/;

/** A positive decimal rate as text (`"4.2965"`), else an error naming it. */
function parseRate(rate: string): Decimal {
  if (!RATE.test(rate)) throw new Error(`Not a decimal rate: ${rate}`);
  const value = new Exact(rate);
  if (value.isZero()) throw new Error('A rate must be above zero');
  return value;
}

/**
 * `amount` minor units of `from` in minor units of `to`, at `rate` (`to` per 1 `from`), rounded once
 * half away from zero. The sign is kept; a result of zero is `0n`, never a negative zero.
 */
export function convertMinor(amount: bigint, from: string, to: string, rate: string | Decimal): bigint {
  const factor = typeof rate === 'string' ? parseRate(rate) : rate;
  const scaled = new Exact(amount.toString())
    .times(factor)
    .times(new Exact(10).pow(currencyExponent(to) - currencyExponent(from)))
    .toDecimalPlaces(0, Exact.ROUND_HALF_UP);
  return BigInt(scaled.toFixed(0));
}

/** `rate` × (1 + `adjustment`), e.g. a card margin of `"0.02"` or a spread of `"-0.005"`, exact. */
export const adjustRate = (rate: string | Decimal, adjustment: string): Decimal =>
  (typeof rate === 'string' ? parseRate(rate) : rate).times(new Exact(1).plus(adjustment));

/** A decimal as plain text without trailing zeros (`"0.02000"` → `"0.02"`). */
export const decimalText = (value: string): string => new Exact(value).toFixed();

/**
 * A rate rounded (half away from zero) to fit a format's decimal type: at most `fractionDigits` after
 * the point and `totalDigits` in all (camt's BaseOneRate: 11 and 10), as plain text.
 */
export function rateWithin(
  rate: string,
  { totalDigits, fractionDigits }: { totalDigits: number; fractionDigits: number },
): string {
  let value = new Exact(rate).toDecimalPlaces(fractionDigits, Exact.ROUND_HALF_UP);
  const integerDigits = value.truncated().isZero() ? 0 : value.truncated().toFixed().length;
  value = value.toDecimalPlaces(Math.max(0, Math.min(fractionDigits, totalDigits - integerDigits)), Exact.ROUND_HALF_UP);
  return value.toFixed();
}

/** The rate as text with at least `significant` significant digits, never in exponent notation. */
export const rateText = (rate: Decimal, significant = 10): string =>
  rate.precision(true) >= significant ? rate.toFixed() : rate.toPrecision(significant);
