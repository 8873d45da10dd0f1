/**
 * The world's reference rates (docs/concepts/currencies.md, "Rates"): computed from (seed, day) alone, so
 * two databases, two machines and two fresh worlds give the same rate for the same day.
 *
 * Every supported currency has an anchor in PLN (ANCHORS, what 1 unit costs in złoty, about the end of
 * 2025). On a TARGET business day its rate is the anchor × (1 + drift + noise):
 * - drift: a value between −4 % and +4 % drawn for each calendar month (and currency), joined to the next
 *   month's by a straight line across the month, so rates wander smoothly;
 * - noise: a value between −0.3 % and +0.3 % drawn for that day (and currency);
 * each draw is pure-rand's xoroshiro128+ seeded from a hash of (seed, currency, month or day), never a
 * running state, so any day costs the same to compute. A day that is not a TARGET business day (a weekend,
 * 1 January, Good Friday, Easter Monday, 1 May, 25–26 December) keeps the last business day's rate.
 *
 * The PLN legs are rounded to 8 significant digits (half away from zero); every other pair is computed
 * from the two PLN legs, base/quote = (base/PLN) / (quote/PLN), in decimal.js with 60 digits, and rounded
 * once to 12 significant digits. No `Number` touches a rate: the draws are integers, the rest decimal.
 */
import type { Currency } from '@sandbank/schemas';
import type { Decimal } from 'decimal.js';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { businessDayOnOrBefore } from '../../lib/business-days.ts';
import { hash32 } from '../../lib/hash32.ts';
import { Exact } from './convert.ts';

/** The seed of every world whose scenario sets no `fxSeed`. */
export const DEFAULT_FX_SEED = 18;

/** What 1 unit of each currency costs in PLN around which the generated rates move. */
export const ANCHORS: Readonly<Record<Currency, string>> = {
  PLN: '1',
  EUR: '4.30',
  USD: '4.00',
  GBP: '5.05',
  CHF: '4.55',
  CZK: '0.172',
  SEK: '0.385',
  NOK: '0.365',
  DKK: '0.576',
  HUF: '0.0109',
  JPY: '0.0265',
  KWD: '13.05',
};

/** Significant digits of a PLN leg, and of any other pair (derived from two legs). */
const LEG_DIGITS = 8;
const CROSS_DIGITS = 12;

/** The first day a rate exists (the euro's first day, TARGET's first business day) and the last. */
export const FIRST_RATE_DAY = '1999-01-04';
export const LAST_RATE_DAY = '9999-12-30';

type ExactValue = InstanceType<typeof Exact>;

/** Drift and noise bounds, in hundred-thousandths. */
const DRIFT = 4_000;
const NOISE = 300;
const SCALE = 100_000;

/** One draw in [−bound, bound] for a key: the first output of a generator seeded by it. */
const draw = (key: string, bound: number): number => uniformInt(xoroshiro128plus(hash32(key)), -bound, bound);

function monthAfter(month: string): string {
  const [year, mon] = month.split('-').map((part) => Number.parseInt(part, 10)) as [number, number];
  return mon === 12
    ? `${String(year + 1).padStart(4, '0')}-01`
    : `${String(year).padStart(4, '0')}-${String(mon + 1).padStart(2, '0')}`;
}

const daysInMonth = (month: string): number => {
  const [year, mon] = month.split('-').map((part) => Number.parseInt(part, 10)) as [number, number];
  return new Date(Date.UTC(year, mon, 0)).getUTCDate();
};

/**
 * Legs already generated, by seed, currency and business day: a leg is a pure function of the three and
 * a decimal.js value is immutable, so every card payment of a day shares one instead of drawing three
 * numbers and multiplying at 60 digits again (issue 41). Bounded: emptied past its size.
 */
const generated = new Map<string, ExactValue>();
const GENERATED_MAX = 10_000;

/** The generated PLN price of 1 unit of `currency` on a TARGET business day. */
function generatedLeg(seed: number, currency: Currency, businessDay: string): ExactValue {
  const key = `${seed}\u0000${currency}\u0000${businessDay}`;
  const known = generated.get(key);
  if (known !== undefined) return known;
  const leg = drawnLeg(seed, currency, businessDay);
  if (generated.size >= GENERATED_MAX) generated.clear();
  generated.set(key, leg);
  return leg;
}

function drawnLeg(seed: number, currency: Currency, businessDay: string): ExactValue {
  if (currency === 'PLN') return new Exact(1);
  const month = businessDay.slice(0, 7);
  const from = draw(`${seed}\u0000${currency}\u0000${month}`, DRIFT);
  const to = draw(`${seed}\u0000${currency}\u0000${monthAfter(month)}`, DRIFT);
  const day = Number.parseInt(businessDay.slice(8, 10), 10);
  // The drift goes from this month's value to the next one's across the month's days.
  const drift = new Exact(from).plus(new Exact(to - from).times(day - 1).dividedBy(daysInMonth(month)));
  const noise = draw(`${seed}\u0000${currency}\u0000${businessDay}`, NOISE);
  const factor = new Exact(1).plus(drift.plus(noise).dividedBy(SCALE));
  return new Exact(ANCHORS[currency]).times(factor).toSignificantDigits(LEG_DIGITS, Exact.ROUND_HALF_UP);
}

/** The day whose generated rates a day shows: itself on a TARGET business day, else the last one before it. */
export const rateDayOf = (day: string): string => businessDayOnOrBefore('TARGET', day);

/** A PLN leg as given (generated or pinned): what 1 unit of a currency costs in PLN. */
export type PlnLeg = (currency: Currency) => ExactValue;

/** The generated PLN legs of a day (the rate day's). */
export const generatedLegs =
  (seed: number, day: string): PlnLeg =>
  (currency) =>
    generatedLeg(seed, currency, rateDayOf(day));

/** base/quote from two PLN legs: exact division, rounded once to CROSS_DIGITS (a PLN leg itself stays as it is). */
export function crossRate(leg: PlnLeg, base: Currency, quote: Currency): ExactValue {
  if (base === quote) return new Exact(1);
  if (quote === 'PLN') return leg(base);
  return leg(base).dividedBy(leg(quote)).toSignificantDigits(CROSS_DIGITS, Exact.ROUND_HALF_UP);
}

/** A rate as the API writes it: plain decimal text, no exponent, no trailing zeros. */
export const rateString = (rate: Decimal): string => rate.toFixed();

/** A stored rate (a pin) as a decimal. */
export const exactRate = (text: string): ExactValue => new Exact(text);

/** 1 / rate, rounded once to CROSS_DIGITS: the inverse pair of a pin. */
export const invertRate = (text: string): ExactValue =>
  new Exact(1).dividedBy(text).toSignificantDigits(CROSS_DIGITS, Exact.ROUND_HALF_UP);
