/**
 * camt.052 (the intraday account report): booked entries of the period with the booked and
 * available balances, and the pending ones with status PDNG. Imported by Debian's AqBanking (its
 * camt_052_001_02 profile); iso20022.js reads camt.053 only, so the PDNG entries are checked by
 * the message's rules with fast-xml-parser (no balance date, no booking date, status PDNG).
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { aqbankingImport, ensureAqbanking } from './aqbanking.ts';
import { daysAgo, download, postedOf, useStatementWorld, warsawDay } from './statement-world.ts';

const given = useStatementWorld(ensureAqbanking);

describe('camt.052', () => {
  it('reports the booked entries and the pending ones (PDNG), imported by AqBanking', async () => {
    const file = await download(
      given.app,
      `/v1/accounts/${given.world.accountId}/statement?format=camt.052&from=${warsawDay(daysAgo(45))}`,
      given.world.user.accessToken,
    );
    expect(file.status, file.text).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/-camt052\.xml"$/);
    const report = new XMLParser({ isArray: (name) => ['Ntry', 'Bal'].includes(name) }).parse(file.text).Document.BkToCstmrAcctRpt
      .Rpt;
    const posted = await postedOf(given.app, given.world);
    const entries = report.Ntry as { Sts: string; Amt: { '#text': number } | number; BookgDt?: unknown; AcctSvcrRef: string }[];
    expect(entries.map((entry) => entry.Sts)).toEqual([...posted.map(() => 'BOOK'), 'PDNG']);
    const pending = entries.at(-1);
    expect(pending?.BookgDt).toBeUndefined();
    expect(report.Bal.map((bal: { Tp: { CdOrPrtry: { Cd: string } } }) => bal.Tp.CdOrPrtry.Cd)).toEqual(['OPBD', 'CLBD', 'CLAV']);

    const imported = aqbankingImport(file.bytes, 'camt052');
    expect(imported.amounts).toEqual([...posted.map((row) => row.amount), -10_00]);
    expect(imported.closing).toBe(given.world.balance);
  });
});
