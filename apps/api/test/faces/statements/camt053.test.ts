/**
 * camt.053 read back by parsers Sandbank did not write: npm `iso20022.js` and Debian's AqBanking.
 * Each must see the API's entries (count, amounts, ids) and its closing balance.
 */
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { describe, expect, it } from 'vitest';
import { aqbankingImport, ensureAqbanking } from './aqbanking.ts';
import { daysAgo, download, HARD_TEXT, postedOf, useStatementWorld, warsawDay } from './statement-world.ts';

const given = useStatementWorld(ensureAqbanking);

const path = (query: string) => `/v1/accounts/${given.world.accountId}/statement?format=camt.053&${query}`;
const compact = (id: string) => id.replaceAll('-', '');

describe('camt.053', () => {
  it('is the API’s booked history, read back by iso20022.js', async () => {
    const from = warsawDay(daysAgo(45));
    const file = await download(given.app, path(`from=${from}`), given.world.user.accessToken);
    expect(file.status, file.text).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="sandbank-PL\\d{26}-${from}-\\d{4}-\\d\\d-\\d\\d-camt053\\.xml"$`),
    );
    const report = CashManagementEndOfDayReport.fromXML(file.text);
    const [statement] = report.statements;
    const posted = await postedOf(given.app, given.world);
    expect(statement?.entries.map((entry) => [entry.accountServicerReferenceId, signed(entry)])).toEqual(
      posted.map((row) => [compact(row.id), row.amount]),
    );
    const balance = (code: string) => statement?.balances.find((bal) => bal.type === code);
    expect(balance('OPBD')).toMatchObject({ amount: 0, creditDebitIndicator: 'credit' });
    expect(balance('CLBD')).toMatchObject({ amount: given.world.balance, creditDebitIndicator: 'credit' });
    expect(statement?.account).toMatchObject({ iban: expect.stringMatching(/^PL\d{26}$/) });

    // Hard text survives XML: `&`, `<`, quotes, emoji and Polish letters whole; long text cut to the schema's limits.
    const byText = (start: string) => statement?.entries.find((entry) => entry.additionalInformation?.startsWith(start));
    const groceries = byText('Zakupy');
    expect(groceries?.additionalInformation).toBe(HARD_TEXT.groceries);
    expect(groceries?.transactions[0]).toMatchObject({
      remittanceInformation: HARD_TEXT.groceries,
      creditor: { name: HARD_TEXT.merchant },
    });
    expect(byText('Wynagrodzenie')?.transactions[0]?.remittanceInformation).toBe(HARD_TEXT.salary);
    const long = byText('Opłata');
    expect(long?.additionalInformation).toBe(HARD_TEXT.long); // under 500 characters: whole
    const remittance = [...(long?.transactions[0]?.remittanceInformation ?? '')];
    expect([remittance.length, remittance.at(-1)]).toEqual([140, '…']);
  });

  it('is imported by AqBanking with the same count, amounts and closing balance', async () => {
    const file = await download(given.app, path(`from=${warsawDay(daysAgo(45))}`), given.world.user.accessToken);
    const imported = aqbankingImport(file.bytes, 'camt');
    const posted = await postedOf(given.app, given.world);
    expect(imported.amounts).toEqual(posted.map((row) => row.amount));
    expect(imported.closing).toBe(given.world.balance);
  });
});

const signed = (entry: { amount: number; creditDebitIndicator: string }) =>
  Math.round(entry.amount) * (entry.creditDebitIndicator === 'debit' ? -1 : 1);
