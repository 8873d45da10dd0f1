/**
 * Amounts through a file and back, for every supported currency: minor units written as the faces
 * write them (`minorToDecimal`) into a pain.001, validated by Debian's xmllint, read by
 * `parsePain001` — the same minor units, from 1 to 10^15, with no Number on the way.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { beforeAll, expect, it } from 'vitest';
import { supportedCurrencies } from '../../src/domain/currencies/currencies.ts';
import { minorToDecimal } from '../../src/domain/currencies/money.ts';
import { decimalToMinor } from '../../src/domain/payment-files/amounts.ts';
import { PAIN001_BOUNDS, parsePain001 } from '../../src/domain/payment-files/pain001.ts';
import { pain001 } from './fixtures.ts';
import { ensureXmllint, xmllintSchema } from './xmllint.ts';

beforeAll(() => {
  ensureXmllint();
}, 120_000);

/** 200 amounts: the edges (1, 10^k − 1, 10^k, 10^15) and seeded random ones of every length. */
function amounts(seed: number): bigint[] {
  const rng = xoroshiro128plus(seed);
  const edges = [1n, 10n ** 15n];
  for (let k = 1n; k <= 14n; k += 1n) edges.push(10n ** k - 1n, 10n ** k);
  const random: bigint[] = [];
  while (edges.length + random.length < 200) {
    const digits = uniformInt(rng, 1, 15);
    let value = 0n;
    for (let digit = 0; digit < digits; digit += 1) value = value * 10n + BigInt(uniformInt(rng, 0, 9));
    if (value > 0n) random.push(value);
  }
  return [...edges, ...random];
}

it.each(supportedCurrencies().map((currency) => currency.code))('%s amounts survive a file exactly', (currency) => {
  const minors = amounts(currency.charCodeAt(0) * 31 + currency.charCodeAt(2));
  const transactions = minors.map((minor, index) => ({
    endToEndId: `E${index}`,
    amount: minorToDecimal(minor, currency),
    currency,
  }));
  const xml = pain001({
    version: '09',
    messageId: `ROUND-TRIP-${currency}`,
    createdAt: '2026-11-30T09:00:00',
    initiatingParty: 'Acme',
    blocks: [{ id: 'B', date: '2026-12-01', transactions }],
  });
  expect(xmllintSchema(xml, 'pain.001.001.09')).toMatchObject({ ok: true });
  const read = parsePain001(xml, { ...PAIN001_BOUNDS, maxAmount: 10n ** 15n });
  expect(read.instructions.map((instruction) => instruction.amount)).toEqual(minors);
  for (const minor of minors.slice(0, 20)) {
    expect(decimalToMinor(minorToDecimal(minor, currency), currency)).toEqual({ ok: true, minor });
  }
});

it('refuses what is not an amount', () => {
  for (const text of ['', '.', '+', '-1', '1e3', '1,00', ' 1 2']) {
    expect(decimalToMinor(text, 'PLN')).toMatchObject({ ok: false });
  }
});
