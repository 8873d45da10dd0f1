/**
 * A generated history (SPEC §8): `months` of a profile's rhythms before the world's today,
 * deterministic from (seed, account key, profile) alone — pure-rand's xoroshiro128+ is the only
 * source of randomness, seeded from a hash of those, so the same scenario gives the same
 * transactions on any machine. Days are Europe/Warsaw days (luxon), ending yesterday: nothing is
 * dated in the future, and times of day look like a real bank's.
 *
 * The balance never goes below zero: a debit the running balance cannot pay is left out (a
 * real card would have been declined). Card payments of the last two days are still pending and
 * post two days after their date, as the clock passes.
 */
import type { Category } from '@sandbank/schemas';
import { DateTime } from 'luxon';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { type Profile, type Rhythm, rhythmsOf } from './profiles.ts';

const ZONE = 'Europe/Warsaw';

export interface GeneratedTransaction {
  externalTxnId: string;
  date: Date;
  amount: number;
  description: string;
  merchant: string | null;
  category: Category | null;
  status: 'posted' | 'pending';
  settleAfter: string | null;
}

export interface GenerateHistoryParams {
  seed: number | string;
  accountKey: string;
  profile: Profile;
  months: number;
  openingBalance: number;
  /** The world's now; the history ends the day before it (in Warsaw). */
  now: Date;
}

/** FNV-1a over the UTF-16 code units: a stable 32-bit seed from any text. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

export function generateHistory(params: GenerateHistoryParams): GeneratedTransaction[] {
  const rng = xoroshiro128plus(hash32(`${String(params.seed)}\u0000${params.accountKey}\u0000${params.profile}`));
  const chance = (probability: number) => uniformInt(rng, 0, 999_999) < probability * 1_000_000;
  const today = DateTime.fromJSDate(params.now, { zone: ZONE }).startOf('day');
  const first = today.minus({ months: params.months });
  const rhythms = rhythmsOf(params.profile);
  const out: GeneratedTransaction[] = [];
  let balance = 0;
  const add = (
    date: DateTime,
    amount: number,
    rhythm: Pick<Rhythm, 'description' | 'merchant' | 'category'>,
    pending: boolean,
  ) => {
    out.push({
      externalTxnId: `scn_${params.accountKey}_${out.length}`,
      date: date.toJSDate(),
      amount,
      description: rhythm.description,
      merchant: rhythm.merchant,
      category: rhythm.category,
      status: pending ? 'pending' : 'posted',
      settleAfter: pending ? 'P2D' : null,
    });
  };
  if (params.openingBalance > 0) {
    add(first, params.openingBalance, { description: 'Saldo otwarcia', merchant: null, category: 'transfer' }, false);
    balance = params.openingBalance;
  }
  for (let day = first; day < today; day = day.plus({ days: 1 })) {
    const items: { at: DateTime; amount: number; rhythm: Rhythm }[] = [];
    const weekend = day.weekday >= 6;
    for (const rhythm of rhythms) {
      let due: boolean;
      if (rhythm.dayOfMonth !== undefined) due = day.day === Math.min(rhythm.dayOfMonth, day.daysInMonth ?? 28);
      else due = chance(((rhythm.perWeek ?? 0) / 7) * (weekend ? (rhythm.weekend ?? 1) : 1));
      if (!due) continue;
      const minute = uniformInt(rng, rhythm.hours[0] * 60, rhythm.hours[1] * 60 - 1);
      items.push({
        at: day.plus({ minutes: minute, seconds: uniformInt(rng, 0, 59) }),
        amount: uniformInt(rng, rhythm.amount[0], rhythm.amount[1]),
        rhythm,
      });
    }
    items.sort((a, b) => a.at.toMillis() - b.at.toMillis());
    const pendingTail = today.diff(day, 'days').days <= 2;
    for (const item of items) {
      if (item.amount === 0) continue;
      const pending = pendingTail && item.rhythm.card === true && item.amount < 0;
      // Pending debits hold funds too: the available balance is what must cover a debit.
      if (item.amount < 0 && balance + item.amount < 0) continue;
      if (item.amount < 0 || !pending) balance += item.amount;
      add(item.at, item.amount, item.rhythm, pending);
    }
  }
  return out;
}
