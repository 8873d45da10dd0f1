/**
 * Actual Budget's own file importer (loot-core's parse-file from npm `@actual-app/api`, the code
 * behind Actual's Account → Import) reads Sandbank's OFX (2.2 and 1.02) and camt.053 with the API's
 * entries: the same count, amounts and ids, in order. Actual's parse has no balance line: what
 * Actual shows after importing a statement into an empty account is the sum of what it parsed, so
 * for a period from before the account's first entry (opening 0) that sum must be the API's
 * closing balance.
 */
import { describe, expect, it } from 'vitest';
import { actualParse, ensureActualImporter } from './actual-importer.ts';
import { daysAgo, download, HARD_TEXT, postedOf, useStatementWorld, warsawDay } from './statement-world.ts';

let actualDir = '';
const given = useStatementWorld(() => {
  actualDir = ensureActualImporter();
});

const cents = (amount: number) => Math.round(amount * 100);
const compact = (id: string) => id.replaceAll('-', '');

describe('Actual Budget’s importer', () => {
  it.each([
    ['ofx', 'ofx'],
    ['ofx1', 'ofx'],
    ['camt.053', 'xml'],
  ] as const)('reads %s with the API’s entries, amounts and closing balance', async (format, extension) => {
    const from = warsawDay(daysAgo(45)); // before the world's first entry: the opening balance is 0
    const file = await download(
      given.app,
      `/v1/accounts/${given.world.accountId}/statement?format=${format}&from=${from}`,
      given.world.user.accessToken,
    );
    expect(file.status, file.text).toBe(200);
    const parsed = actualParse(actualDir, file.bytes, extension);
    expect(parsed.errors).toEqual([]);
    const posted = await postedOf(given.app, given.world);
    const ids = posted.map((row) => (format === 'camt.053' ? compact(row.id) : row.id));
    expect(parsed.transactions.map((t) => [t.imported_id, cents(t.amount)])).toEqual(
      posted.map((row, i) => [ids[i], row.amount]),
    );
    expect(parsed.transactions.reduce((total, t) => total + cents(t.amount), 0)).toBe(given.world.balance);
    // Text as Actual shows it: the merchant as payee, escapes undone (`&`, `<`, quotes, emoji, Polish letters).
    const groceries = parsed.transactions.find((t) => cents(t.amount) === -123_45);
    expect(groceries?.payee_name).toBe(
      format === 'camt.053' ? HARD_TEXT.merchant : `${[...HARD_TEXT.merchant].slice(0, 31).join('')}…`,
    );
  });
});
