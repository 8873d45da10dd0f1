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
import type { Decimal } from 'decimal.js';
import { AppError, notFound, worldGone } from '../../errors.ts';
import { adjustRate, convertMinor, Exact, rateText } from './convert.ts';
import { currencyExponent } from './currencies.ts';
import { rateInWorld } from './fx-rates.ts';
import { type FxWorldRow, selectConversionInputs } from './queries.ts';

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
  const converted = atWorldRate(
    { fx_seed: world.fx_seed, pins: world.pins, day: world.day, currency, cardFxMargin: world.card_fx_margin },
    params,
  );
  if (typeof converted === 'string') throw invalid('originalAmount', converted);
  if (world.pins.length === 0 && params.at === null) {
    const { card_fx_margin: cardFxMargin, fx_seed: fxSeed, day } = world;
    remember(userId, accountId, { currency, cardFxMargin, fxSeed, day, rates: new Map() });
  }
  return { ...converted, date };
}

/** What a conversion at the world's rate needs: the world's seed and pins, the payment's day, the account's currency and margin. */
interface RateInputs extends FxWorldRow {
  day: string;
  currency: Currency;
  cardFxMargin: string;
}

/** The amount and conversion at the world's rate plus the margin, or why not (a VALIDATION_ERROR's message). */
function atWorldRate(
  inputs: RateInputs,
  { originalAmount, originalCurrency, maxAmount }: CardConversionParams,
  known?: Map<string, Decimal>,
): { amount: number; conversion: Conversion } | string {
  const { currency } = inputs;
  // The rate with the margin depends only on the inputs, the original currency and the direction: kept with an
  // assumption (`known`), a card payment converts without generating the day's rates again.
  const key = `${originalCurrency}${originalAmount < 0 ? '-' : '+'}`;
  let effective = known?.get(key);
  if (effective === undefined) {
    const reference = rateInWorld(inputs, inputs.day, originalCurrency, currency);
    effective = adjustRate(reference, originalAmount < 0 ? inputs.cardFxMargin : `-${inputs.cardFxMargin}`);
    known?.set(key, effective);
  }
  const converted = convertMinor(BigInt(originalAmount), originalCurrency, currency, effective);
  if (converted === 0n) return `Converts to 0 minor units of ${currency}`;
  if (converted > BigInt(maxAmount) || converted < -BigInt(maxAmount)) {
    return `Converts to ${converted} minor units of ${currency}, beyond ±10^12`;
  }
  return { amount: Number(converted), conversion: { originalAmount, originalCurrency, exchangeRate: rateText(effective) } };
}

/**
 * What the last conversion of an account read (issue 41): its currency and margin, the world's seed, and the
 * day, when the world pinned no rate in the days the rate is taken from. A later card payment of the account
 * converts with it and books in one statement that checks every assumption in its own snapshot
 * (simulations/queries.ts, CONVERSION_GUARD): so a pin, a new seed or the world's next day, in any API
 * process, is seen by the next booking, and a booking whose check fails writes nothing and is converted
 * again from a fresh read. Bounded: emptied past its size.
 */
interface Assumption {
  currency: Currency;
  cardFxMargin: string;
  fxSeed: number | null;
  day: string;
  /** The effective rates (margin included) converted with so far, by original currency and direction. */
  rates: Map<string, Decimal>;
}
const assumptions = new Map<string, Assumption>();
const ASSUMPTIONS_MAX = 10_000;
const assumptionKey = (userId: string, accountId: string) => `${userId}\u0000${accountId}`;

function remember(userId: string, accountId: string, assumption: Assumption): void {
  if (assumptions.size >= ASSUMPTIONS_MAX) assumptions.clear();
  assumptions.set(assumptionKey(userId, accountId), assumption);
}

/** Drops what an account's conversions assumed (its guarded booking wrote nothing). */
export function forgetConversion(userId: string, accountId: string): void {
  assumptions.delete(assumptionKey(userId, accountId));
}

/**
 * A card payment at the world's rate converted from what the account's last conversion read, with the
 * assumptions the booking statement must check (`guard`); null when nothing is known or the conversion is
 * refused (the full path then reads and answers). Only for a payment at the world's now, at its rate.
 */
export function assumedConversion(params: CardConversionParams): {
  amount: number;
  conversion: Conversion;
  currency: Currency;
  guard: { cardFxMargin: string; day: string; fxSeed: number | null };
} | null {
  const assumed = assumptions.get(assumptionKey(params.userId, params.accountId));
  if (!assumed || params.amount !== undefined || params.at !== null || params.originalCurrency === assumed.currency) return null;
  const { originalAmount, originalCurrency } = params;
  if (!Number.isSafeInteger(originalAmount) || originalAmount === 0 || Math.abs(originalAmount) > MAX_ORIGINAL_AMOUNT)
    return null;
  if (!(CURRENCIES as readonly string[]).includes(originalCurrency)) return null;
  const converted = atWorldRate({ fx_seed: assumed.fxSeed, pins: [], ...assumed }, params, assumed.rates);
  if (typeof converted === 'string') return null;
  const { cardFxMargin, day, fxSeed } = assumed;
  return { ...converted, currency: assumed.currency, guard: { cardFxMargin, day, fxSeed } };
}
