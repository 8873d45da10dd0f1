/** OFX 2.2 and 1.02 read back by npm `ofx-js`, a parser Sandbank did not write. */
import { parseSync } from 'ofx-js';
import { describe, expect, it } from 'vitest';
import { daysAgo, download, HARD_TEXT, postedOf, useStatementWorld, warsawDay } from './statement-world.ts';

const given = useStatementWorld();

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe.each(['ofx', 'ofx1'])('%s', (format) => {
  it('is the API’s booked history, read by ofx-js, with ledger and available balances', async () => {
    const path = `/v1/accounts/${given.world.accountId}/statement?format=${format}&from=${warsawDay(daysAgo(45))}`;
    const file = await download(given.app, path, given.world.user.accessToken);
    expect(file.status, file.text).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/x-ofx; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(new RegExp(`-${format}\\.ofx"$`));
    const parsed = parseSync(file.text);
    expect(parsed.header).toMatchObject(format === 'ofx' ? {} : { VERSION: '102', DATA: 'OFXSGML' });
    const statement = parsed.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    const transactions = list(statement.BANKTRANLIST.STMTTRN) as Record<string, string>[];
    const posted = await postedOf(given.app, given.world);
    expect(transactions.map((t) => [t.FITID, Math.round(Number(t.TRNAMT) * 100)])).toEqual(
      posted.map((row) => [row.id, row.amount]),
    );
    expect(Math.round(Number(statement.LEDGERBAL.BALAMT) * 100)).toBe(given.world.balance);
    expect(Math.round(Number(statement.AVAILBAL.BALAMT) * 100)).toBe(given.world.balance - 10_00); // one pending debit of 10.00 held
    const groceries = transactions.find((t) => t.MEMO === HARD_TEXT.groceries);
    expect(groceries).toMatchObject({ TRNTYPE: 'POS', NAME: 'Żabka "Polska" & Co <sp. z o.o.…' }); // 32 characters at most
    expect([...(transactions.find((t) => t.MEMO?.startsWith('Opłata'))?.MEMO ?? '')]).toHaveLength(255);
  });
});
