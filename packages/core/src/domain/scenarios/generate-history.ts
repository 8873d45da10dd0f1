/**
 * A generated history (docs/concepts/scenarios.md): `months` of a profile's rhythms before the world's today,
 * deterministic from (seed, account key, profile) alone — pure-rand's xoroshiro128+ is the only
 * source of randomness, seeded from a hash of those, so the same scenario gives the same
 * transactions on any machine.
 *
 * The same on any DAY, too: a history is laid out on a fixed reference calendar — the `months`
 * before Monday 6 January 2025, Europe/Warsaw days — and then moved by whole days to end yesterday.
 * Every transaction keeps its distance in days from today and its Warsaw wall time, whatever the
 * day of applying (the draws depend on weekdays, month lengths and days of the month, so laying
 * them out on the real calendar made `scn_<key>_<n>` differ from one day to the next). Weekly and
 * monthly rhythms keep their shape — a bill once a month on the same day, shops busier two days a
 * week, salary every month — on days counted back from today rather than on named weekdays or
 * dates of the month. Wall times lie between 03:00 and 24:00, never in a DST gap, so they exist on
 * every day they are moved to.
 *
 * The balance never goes below zero: a debit the running balance cannot pay is left out (a
 * real card would have been declined). Card payments of the last two days are still pending and
 * post three days after their date, as the clock passes. Three, not two: the history ends yesterday
 * but is applied at any hour of today, and a payment of two days ago posting two days after its
 * date would already be due at an hour that depends on when the scenario is applied — the same
 * scenario would give a different number of pending payments in the morning and in the evening.
 * Three days after a date at most two days back is always tomorrow or later, so whether a history
 * ends with pending payments depends on the seed and the profile only, never on the hour.
 */
import type { Category, Currency } from '@sandbank/schemas';
import { DateTime } from 'luxon';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { hash32 } from '../../lib/hash32.ts';
import { adjustRate, convertMinor, rateText } from '../currencies/convert.ts';
import { ANCHORS, crossRate, DEFAULT_FX_SEED, generatedLegs, invertRate } from '../currencies/reference-rates.ts';
import { type Profile, type Rhythm, rhythmsOf } from './profiles.ts';

const ZONE = 'Europe/Warsaw';
/** The reference calendar's today (a Monday): histories are drawn on the days before it. */
const REFERENCE_TODAY = DateTime.fromObject({ year: 2025, month: 1, day: 6 }, { zone: ZONE });
const DAY_MS = 86_400_000;
/** When a pending card payment of the history's last two days posts: after its date, always after today. */
const CARD_SETTLE_AFTER = 'P3D';

/** Whole calendar days from `a` to `b` (both Warsaw days), DST-proof. */
const daysBetween = (a: DateTime, b: DateTime) =>
  Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);

export interface GeneratedTransaction {
  externalTxnId: string;
  date: Date;
  amount: number;
  description: string;
  merchant: string | null;
  category: Category | null;
  status: 'posted' | 'pending';
  settleAfter: string | null;
  /** A payment charged in another currency (the `abroad` profile). */
  conversion?: GeneratedConversion;
}

export interface GenerateHistoryParams {
  seed: number | string;
  accountKey: string;
  profile: Profile;
  months: number;
  openingBalance: number;
  /** The world's now; the history ends the day before it (in Warsaw), at the same distance from it every time. */
  now: Date;
  /**
   * The account's currency (default PLN): a profile's amounts are złoty, drawn as ever, then moved into this
   * currency at its anchor (reference-rates.ts), so a yen account spends yen, not grosze.
   */
  currency?: Currency | undefined;
  /** The world's rates seed (reference-rates.ts): what a payment in another currency converts at. */
  fxSeed?: number | undefined;
}

/** What a generated payment in another currency keeps (docs/concepts/currencies.md). */
interface GeneratedConversion {
  originalAmount: number;
  originalCurrency: Currency;
  exchangeRate: string;
}

/** The default card FX margin an account opened by a scenario has (accounts.card_fx_margin). */
const CARD_FX_MARGIN = '0.02';

/**
 * A rhythm's drawn amount in the account's currency: złoty moved at the anchor, or, for a rhythm charged in
 * another currency, converted at the reference rate of the REFERENCE day it is drawn on (so the history is the
 * same whatever the day of applying) plus the default card FX margin, rounded once.
 */
function amountOf(
  drawn: number,
  rhythm: Rhythm,
  { currency, fxSeed, day }: { currency: Currency; fxSeed: number; day: string },
): { amount: number; conversion: GeneratedConversion | null } {
  const original = rhythm.originalCurrency;
  if (!original) return { amount: fromPln(drawn, currency), conversion: null };
  if (original === currency) return { amount: drawn, conversion: null };
  const rate = adjustRate(
    crossRate(generatedLegs(fxSeed, day), original, currency),
    drawn < 0 ? CARD_FX_MARGIN : `-${CARD_FX_MARGIN}`,
  );
  return {
    amount: Number(convertMinor(BigInt(drawn), original, currency, rate)),
    conversion: { originalAmount: drawn, originalCurrency: original, exchangeRate: rateText(rate) },
  };
}

/** A profile's PLN minor units in `currency`'s, at the currency's anchor, rounded once (half away from zero). */
function fromPln(amount: number, currency: Currency): number {
  if (currency === 'PLN') return amount;
  return Number(convertMinor(BigInt(amount), 'PLN', currency, invertRate(ANCHORS[currency])));
}

export function generateHistory(params: GenerateHistoryParams): GeneratedTransaction[] {
  const rng = xoroshiro128plus(hash32(`${String(params.seed)}\u0000${params.accountKey}\u0000${params.profile}`));
  const chance = (probability: number) => uniformInt(rng, 0, 999_999) < probability * 1_000_000;
  const today = DateTime.fromJSDate(params.now, { zone: ZONE }).startOf('day');
  /** The real instant of a reference day's wall time: as many days before today as the day is before the reference's. */
  const placed = (day: DateTime, secondOfDay: number) =>
    today
      .plus({ days: daysBetween(REFERENCE_TODAY, day) })
      .set({ hour: Math.floor(secondOfDay / 3600), minute: Math.floor(secondOfDay / 60) % 60, second: secondOfDay % 60 })
      .toJSDate();
  const first = REFERENCE_TODAY.minus({ months: params.months });
  const rhythms = rhythmsOf(params.profile);
  const out: GeneratedTransaction[] = [];
  let balance = 0;
  const add = (
    date: Date,
    amount: number,
    rhythm: Pick<Rhythm, 'description' | 'merchant' | 'category'>,
    pending: boolean,
    conversion: GeneratedConversion | null = null,
  ) => {
    out.push({
      externalTxnId: `scn_${params.accountKey}_${out.length}`,
      date,
      amount,
      description: rhythm.description,
      merchant: rhythm.merchant,
      category: rhythm.category,
      status: pending ? 'pending' : 'posted',
      settleAfter: pending ? CARD_SETTLE_AFTER : null,
      ...(conversion ? { conversion } : {}),
    });
  };
  const money = { currency: params.currency ?? 'PLN', fxSeed: params.fxSeed ?? DEFAULT_FX_SEED };
  if (params.openingBalance > 0) {
    add(placed(first, 0), params.openingBalance, { description: 'Saldo otwarcia', merchant: null, category: 'transfer' }, false);
    balance = params.openingBalance;
  }
  for (let day = first; day < REFERENCE_TODAY; day = day.plus({ days: 1 })) {
    const items: { secondOfDay: number; amount: number; rhythm: Rhythm; conversion: GeneratedConversion | null }[] = [];
    const weekend = day.weekday >= 6;
    for (const rhythm of rhythms) {
      let due: boolean;
      if (rhythm.dayOfMonth !== undefined) due = day.day === Math.min(rhythm.dayOfMonth, day.daysInMonth ?? 28);
      else due = chance(((rhythm.perWeek ?? 0) / 7) * (weekend ? (rhythm.weekend ?? 1) : 1));
      if (!due) continue;
      const minute = uniformInt(rng, rhythm.hours[0] * 60, rhythm.hours[1] * 60 - 1);
      items.push({
        secondOfDay: minute * 60 + uniformInt(rng, 0, 59),
        ...amountOf(uniformInt(rng, rhythm.amount[0], rhythm.amount[1]), rhythm, { ...money, day: day.toISODate() ?? '' }),
        rhythm,
      });
    }
    items.sort((a, b) => a.secondOfDay - b.secondOfDay);
    const pendingTail = daysBetween(day, REFERENCE_TODAY) <= 2;
    for (const item of items) {
      if (item.amount === 0) continue;
      const pending = pendingTail && item.rhythm.card === true && item.amount < 0;
      // Pending debits hold funds too: the available balance is what must cover a debit.
      if (item.amount < 0 && balance + item.amount < 0) continue;
      if (item.amount < 0 || !pending) balance += item.amount;
      add(placed(day, item.secondOfDay), item.amount, item.rhythm, pending, item.conversion);
    }
  }
  return out;
}
