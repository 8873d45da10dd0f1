/**
 * Statement files of EUR, JPY and KWD accounts read back by parsers Sandbank did not write: Debian's
 * AqBanking (camt.053, MT940), npm `mt940js` (MT940, which also checks opening + turnover = closing),
 * `ofx-js` (OFX `CURDEF`), `csv-parse` (the CSV's currency column) and Actual Budget's own importer
 * (OFX and camt.053). Every amount has the
 * currency's places (JPY none, KWD three) and every file names the account's currency.
 */

import { simulate } from '@sandbank/testing/fixtures';
import { parse as parseCsv } from 'csv-parse/sync';
import { Parser } from 'mt940js';
import { parseSync } from 'ofx-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../../helpers.ts';
import { actualParse, ensureActualImporter } from './actual-importer.ts';
import { aqbankingValues, ensureAqbanking } from './aqbanking.ts';
import { download } from './statement-world.ts';

let app: TestApp;
let user: TestUser;
let actualDir = '';
const accounts: Record<string, string> = {};
/** Booked in this order: the smallest unit in and out, and 10^12 minor units (the largest booking). */
const AMOUNTS = [10 ** 12, 1, -1, -123];
/** The same amounts as the currency writes them (ISO 4217 places). */
const DECIMALS: Record<string, string[]> = {
  EUR: ['10000000000.00', '0.01', '-0.01', '-1.23'],
  JPY: ['1000000000000', '1', '-1', '-123'],
  KWD: ['1000000000.000', '0.001', '-0.001', '-0.123'],
};
const CLOSING: Record<string, string> = { EUR: '9999999998.77', JPY: '999999999877', KWD: '999999999.877' };

beforeAll(async () => {
  ensureAqbanking();
  actualDir = ensureActualImporter();
  app = await startTestApp();
  user = await app.createUser();
  for (const currency of Object.keys(DECIMALS)) {
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: currency, currency } });
    expect(res.status).toBe(201);
    accounts[currency] = res.body.data.id;
    for (const amount of AMOUNTS) {
      expect((await simulate(app, user, { accountId: res.body.data.id, amount })).status).toBe(201);
    }
  }
}, 900_000);
afterAll(() => app?.close());

const file = async (currency: string, format: string) => {
  const got = await download(app, `/v1/accounts/${accounts[currency]}/statement?format=${format}`, user.accessToken);
  expect(got.status, got.text).toBe(200);
  return got;
};

/** AqBanking's "-1/1000:KWD" or "-0.001:KWD" → [decimal text with the currency's places, currency], exactly. */
function aqbankingValue(value: string, places: number): [string, string] {
  const [amount = '', currency = ''] = value.trim().split(':');
  const fraction = /^(-?\d+)\/(\d+)$/.exec(amount);
  const scale = 10n ** BigInt(places);
  let minor: bigint;
  if (fraction) minor = (BigInt(fraction[1] ?? '') * scale) / BigInt(fraction[2] ?? '');
  else {
    const [whole = '', part = ''] = amount.replace('-', '').split('.');
    minor = (BigInt(whole) * scale + BigInt(part.padEnd(places, '0') || '0')) * (amount.startsWith('-') ? -1n : 1n);
  }
  const abs = minor < 0n ? -minor : minor;
  const text = places === 0 ? `${abs}` : `${abs / scale}.${String(abs % scale).padStart(places, '0')}`;
  return [`${minor < 0n ? '-' : ''}${text}`, currency];
}

const PLACES: Record<string, number> = { EUR: 2, JPY: 0, KWD: 3 };

describe.each(Object.keys(DECIMALS))('a %s account’s statements', (currency) => {
  const decimals = DECIMALS[currency] as string[];
  const places = PLACES[currency] as number;

  it('camt.053: AqBanking reads each amount and the closing balance in the currency', async () => {
    const read = aqbankingValues((await file(currency, 'camt.053')).bytes, 'camt');
    expect(read.transactions.map((value) => aqbankingValue(value, places))).toEqual(
      decimals.map((decimal) => [decimal, currency]),
    );
    expect(aqbankingValue(read.balances.at(-1) ?? '', places)).toEqual([CLOSING[currency], currency]);
  });

  it('camt.053: every Amt names the currency, with its places', async () => {
    const { text } = await file(currency, 'camt.053');
    const amts = [...text.matchAll(/<Amt Ccy="([A-Z]{3})">([^<]+)<\/Amt>/g)];
    expect(new Set(amts.map((m) => m[1]))).toEqual(new Set([currency]));
    for (const m of amts) expect(m[2]).toMatch(places === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${places}}$`));
    expect(text).toContain(`<Ccy>${currency}</Ccy>`);
  });

  it('MT940: mt940js and AqBanking read the amounts and the currency', async () => {
    const { text, bytes } = await file(currency, 'mt940');
    const [statement] = new Parser().parse(text);
    expect(statement?.currency).toBe(currency);
    // mt940js rounds every amount to two decimals (helperModels.js), so KWD's fils are AqBanking's to check.
    if (places <= 2) expect(statement?.transactions.map((t) => t.amount)).toEqual(decimals.map(Number));
    const read = aqbankingValues(bytes, 'mt940');
    expect(read.transactions.map((value) => aqbankingValue(value, places))).toEqual(
      decimals.map((decimal) => [decimal, currency]),
    );
    expect(aqbankingValue(read.balances.at(-1) ?? '', places)).toEqual([CLOSING[currency], currency]);
  });

  it('OFX: ofx-js reads CURDEF and each TRNAMT with the currency’s places', async () => {
    const { text } = await file(currency, 'ofx');
    const statement = parseSync(text).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.CURDEF).toBe(currency);
    const rows = [statement.BANKTRANLIST.STMTTRN].flat() as { TRNAMT: string }[];
    expect(rows.map((row) => row.TRNAMT)).toEqual(decimals);
    expect(statement.LEDGERBAL.BALAMT).toBe(CLOSING[currency]);
  });

  it.each([
    ['ofx', 'ofx'],
    ['camt.053', 'xml'],
  ] as const)('%s: Actual Budget’s importer reads each amount in major units', async (format, extension) => {
    const parsed = actualParse(actualDir, (await file(currency, format)).bytes, extension);
    expect(parsed.errors).toEqual([]);
    expect(parsed.transactions.map((t) => t.amount)).toEqual(decimals.map(Number));
  });

  it('CSV: csv-parse reads the currency column and the amounts', async () => {
    const rows = parseCsv((await file(currency, 'csv')).bytes, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.amount, row.currency])).toEqual(decimals.map((decimal) => [decimal, currency]));
    expect(rows.at(-1)?.balance_after).toBe(CLOSING[currency]);
  });
});
