/**
 * Card payments in another currency (docs/concepts/currencies.md, "Card payments abroad"): what the
 * merchant charged (`originalAmount` minor units of `originalCurrency`, signed like the booking) becomes an
 * amount in the account's currency, either
 * - at the world's rate for the payment's day (Europe/Warsaw) plus the account's card FX margin: a debit
 *   pays rate × (1 + margin), a credit (a refund) gets rate × (1 − margin); or
 * - at the rate an explicit `amount` implies (amount / originalAmount, 12 significant digits).
 * The amount is rounded once, to the account's minor unit, half away from zero (convert.ts); the rate is
 * kept as decimal text with at least 10 significant digits. No `Number` arithmetic on money or rates.
 */
import type { EntityManager } from '@sandbank/db';
import { CURRENCIES, type Currency } from '@sandbank/schemas';
import { AppError, notFound, worldGone } from '../../errors.ts';
import { adjustRate, convertMinor, Exact, rateText } from './convert.ts';
import { currencyExponent } from './currencies.ts';
import { rateInWorld } from './fx-rates.ts';
import { selectConversionInputs } from './queries.ts';

/** The largest |originalAmount|, in the original currency's minor units (the converted amount has its own bound). */
export const MAX_ORIGINAL_AMOUNT = 1_000_000_000_000_000;

export interface Conversion {
  originalAmount: number;
  originalCurrency: Currency;
  /** Account currency per 1 unit of the original, at least 10 significant digits. */
  exchangeRate: string;
}

export interface CardConversionParams {
  userId: string;
  accountId: string;
  /** The payment's instant if given (its Warsaw day picks the rate); null: the world's now. */
  at: Date | null;
  originalAmount: number;
  originalCurrency: Currency;
  /** Given: the explicit amount in the account's currency (the rate follows from it). */
  amount?: number | undefined;
  /** The largest |amount| a booking takes. */
  maxAmount: number;
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });

/** The booking's amount in the account's currency, and what the transaction keeps of the conversion. */
export async function convertCardPayment(
  em: EntityManager,
  params: CardConversionParams,
): Promise<{ amount: number; conversion: Conversion; date: Date }> {
  const { userId, accountId, originalAmount, originalCurrency } = params;
  if (!Number.isSafeInteger(originalAmount) || originalAmount === 0 || Math.abs(originalAmount) > MAX_ORIGINAL_AMOUNT) {
    throw invalid('originalAmount', 'Must be a non-zero integer within ±10^15');
  }
  if (!(CURRENCIES as readonly string[]).includes(originalCurrency)) {
    throw invalid('originalCurrency', `Must be one of ${CURRENCIES.join(', ')}`);
  }
  // One prepared read: the instant and its day, the account's currency and margin, the world's seed and pins.
  const world = await selectConversionInputs(em, { userId, accountId, at: params.at });
  if (!world) throw worldGone();
  if (world.currency === null || world.card_fx_margin === null) throw notFound('Account');
  const currency = world.currency as Currency;
  const date = params.at ?? new Date(world.at);
  if (originalCurrency === currency) {
    throw invalid('originalCurrency', `Must differ from the account's currency, ${currency}: book amount alone`);
  }
  const original = BigInt(originalAmount);
  if (params.amount !== undefined) {
    if (Math.sign(params.amount) !== Math.sign(originalAmount)) {
      throw invalid('originalAmount', 'Must have the sign of amount');
    }
    // amount / originalAmount in whole units of each currency: the rate the two amounts imply.
    const rate = new Exact(params.amount.toString())
      .dividedBy(originalAmount.toString())
      .times(new Exact(10).pow(currencyExponent(originalCurrency) - currencyExponent(currency)))
      .toSignificantDigits(12, Exact.ROUND_HALF_UP);
    return { amount: params.amount, conversion: { originalAmount, originalCurrency, exchangeRate: rateText(rate) }, date };
  }
  const reference = rateInWorld(world, world.day, originalCurrency, currency);
  const margin = originalAmount < 0 ? world.card_fx_margin : `-${world.card_fx_margin}`;
  const effective = adjustRate(reference, margin);
  const converted = convertMinor(original, originalCurrency, currency, effective);
  if (converted === 0n) {
    throw invalid('originalAmount', `Converts to 0 minor units of ${currency}`);
  }
  if (converted > BigInt(params.maxAmount) || converted < -BigInt(params.maxAmount)) {
    throw invalid('originalAmount', `Converts to ${converted} minor units of ${currency}, beyond ±10^12`);
  }
  return {
    amount: Number(converted),
    conversion: { originalAmount, originalCurrency, exchangeRate: rateText(effective) },
    date,
  };
}
