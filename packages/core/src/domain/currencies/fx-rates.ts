/**
 * A world's exchange rates (docs/concepts/currencies.md, "Rates"): the generated reference rates of its
 * seed (reference-rates.ts), unless a rate is pinned in it (`PUT /v1/fx/rates`).
 *
 * Which rate a day has, for base/quote:
 * 1. a pin of that pair on the day, or of the inverse pair (then 1 / pin);
 * 2. on a day that is not a TARGET business day, the same on the last business day before it;
 * 3. else the cross through PLN of the two PLN legs, each pinned (that day, else the business day) or
 *    generated for the business day.
 * So a pin of EUR/PLN on a Friday also holds on the weekend after it, and moves EUR/USD that day too.
 */

import type { EntityManager } from '@sandbank/db';
import { CURRENCIES, type Currency } from '@sandbank/schemas';
import { DateTime } from 'luxon';
import { AppError, worldGone } from '../../errors.ts';
import { userNow } from '../clock/clock.ts';
import { countPins, type FxWorldRow, lockUserForPin, type PinRow, selectFxWorld, upsertPin } from './queries.ts';
import {
  crossRate,
  DEFAULT_FX_SEED,
  exactRate,
  FIRST_RATE_DAY,
  generatedLegs,
  invertRate,
  LAST_RATE_DAY,
  rateDayOf,
  rateString,
} from './reference-rates.ts';

/** At most this many pinned rates per world (422 LIMIT_EXCEEDED beyond). */
const MAX_FX_PINS = 1_000;

const ZONE = 'Europe/Warsaw';

export interface FxRate {
  date: string;
  /** The TARGET business day whose rate the date shows (the date itself on a business day). */
  rateDate: string;
  base: Currency;
  quote: Currency;
  /** Quote currency per 1 unit of the base, plain decimal text. */
  rate: string;
  /** Whether a pin of this world decided it (the pair's, its inverse's or one of its PLN legs'). */
  pinned: boolean;
}

export interface FxRateParams {
  userId: string;
  /** YYYY-MM-DD, a day in Europe/Warsaw. */
  date: string;
  base: Currency;
  quote: Currency;
}

function checkDay(date: string, path = 'date'): void {
  if (date < FIRST_RATE_DAY || date > LAST_RATE_DAY) {
    const message = `Rates exist from ${FIRST_RATE_DAY} to ${LAST_RATE_DAY}`;
    throw new AppError('VALIDATION_ERROR', message, { details: [{ path, message }] });
  }
}

/** The world's day (YYYY-MM-DD in Europe/Warsaw) of an instant. */
export const warsawDay = (at: Date): string => DateTime.fromJSDate(at, { zone: ZONE }).toISODate() ?? '';

/** The rates of one day of a world, as a function of (base, quote). */
async function ratesOfDay(em: EntityManager, userId: string, date: string) {
  checkDay(date);
  const rateDate = rateDayOf(date);
  const world = await selectFxWorld(em, userId, [...new Set([date, rateDate])]);
  if (!world) throw worldGone();
  return ratesOfWorld(world, date, rateDate);
}

/** A world's rates on a day, from its seed and pins (those of the day and of its rate day at least): no database. */
export function rateInWorld(world: FxWorldRow, date: string, base: Currency, quote: Currency): string {
  checkDay(date);
  return ratesOfWorld(world, date, rateDayOf(date))(base, quote).rate;
}

function ratesOfWorld(world: FxWorldRow, date: string, rateDate: string) {
  const seed = world.fx_seed ?? DEFAULT_FX_SEED;
  const generated = generatedLegs(seed, date);
  const pinOn = (day: string, base: Currency, quote: Currency): string | undefined => {
    const find = (b: string, q: string) => world.pins.find((p: PinRow) => p.day === day && p.base === b && p.quote === q);
    const direct = find(base, quote);
    if (direct) return rateString(exactRate(direct.rate));
    const inverse = find(quote, base);
    return inverse && rateString(invertRate(inverse.rate));
  };
  const pinned = (base: Currency, quote: Currency) => pinOn(date, base, quote) ?? pinOn(rateDate, base, quote);
  return (base: Currency, quote: Currency): FxRate => {
    const own = base === quote ? undefined : pinned(base, quote);
    if (own !== undefined) return { date, rateDate, base, quote, rate: own, pinned: true };
    let usedPin = false;
    const leg = (currency: Currency) => {
      const pin = currency === 'PLN' ? undefined : pinned(currency, 'PLN');
      if (pin === undefined) return generated(currency);
      usedPin = true;
      return exactRate(pin);
    };
    const rate = rateString(crossRate(leg, base, quote));
    return { date, rateDate, base, quote, rate, pinned: usedPin };
  };
}

/** The world's rate for base/quote on a day (quote per 1 base), as decimal text: what payments convert at. */
export async function fxRate(em: EntityManager, params: FxRateParams): Promise<string> {
  return (await ratesOfDay(em, params.userId, params.date))(params.base, params.quote).rate;
}

/** Every supported quote's rate against `base` on a day (default: the world's today). */
export async function listFxRates(
  em: EntityManager,
  { userId, date, base }: { userId: string; date?: string | undefined; base: Currency },
): Promise<FxRate[]> {
  const day = date ?? warsawDay(await userNow(em, userId));
  const rate = await ratesOfDay(em, userId, day);
  return CURRENCIES.filter((quote) => quote !== base).map((quote) => rate(base, quote));
}

export interface PinFxRateParams extends FxRateParams {
  rate: string;
}

/** Pins a rate in the world for one day and pair (replacing that day's pin of the pair or its inverse). */
export async function pinFxRate(em: EntityManager, params: PinFxRateParams): Promise<FxRate> {
  const { userId, date, base, quote, rate } = params;
  checkDay(date);
  if (base === quote) {
    throw new AppError('VALIDATION_ERROR', 'The base and the quote must differ', {
      details: [{ path: 'quote', message: 'Must differ from base' }],
    });
  }
  await em.transactional(async (tx) => {
    if (!(await lockUserForPin(tx, userId))) throw worldGone();
    const { total, same } = await countPins(tx, { userId, day: date, base, quote });
    if (!same && total >= MAX_FX_PINS) {
      throw new AppError('LIMIT_EXCEEDED', `The world has ${total} pinned rates; the limit is ${MAX_FX_PINS}`, {
        details: [{ path: 'rate', message: `At most ${MAX_FX_PINS} pinned rates per world` }],
      });
    }
    await upsertPin(tx, { userId, day: date, base, quote, rate });
  });
  return (await ratesOfDay(em, userId, date))(base, quote);
}
