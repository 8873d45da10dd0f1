/**
 * A card payment in another currency at every face, read by parsers Sandbank did not write
 * (docs/concepts/currencies.md, "At the faces"): GoCardless's `currencyExchange` through `nordigen-node`
 * (its answers checked against GoCardless's published document as every face answer is), camt.053/052's
 * `AmtDtls/InstdAmt` + `CcyXchg` through fast-xml-parser (with AqBanking and iso20022.js still reading
 * the entry itself), OFX's `ORIGCURRENCY` through ofx-js, and Plaid's SDK: `iso_currency_code` stays
 * the account's.
 */
import { simulate } from '@sandbank/testing/fixtures';
import { XMLParser } from 'fast-xml-parser';
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { parseSync } from 'ofx-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aqbankingValues, ensureAqbanking } from './faces/statements/aqbanking.ts';
import { download } from './faces/statements/statement-world.ts';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { AppLedger, linkItem, plaidClientOf } from './plaid-calls.ts';

let app: TestApp;
let user: TestUser;
let accountId = '';
/** Ids of the entries: a debit paid in PLN, a refund in JPY, a plain EUR debit, a pending debit in USD. */
const ids: Record<'pln' | 'jpy' | 'plain' | 'pending', string> = { pln: '', jpy: '', plain: '', pending: '' };

beforeAll(async () => {
  ensureAqbanking();
  app = await startTestApp();
  user = await app.createUser();
  const account = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Euro', currency: 'EUR' } });
  accountId = account.body.data.id;
  const book = async (body: Record<string, unknown>) => {
    const res = await simulate(app, user, { accountId, ...body } as { accountId: string; amount: number });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.transaction.id as string;
  };
  await book({ amount: 500_00, description: 'Top-up' });
  // Explicit rates: 10.00 EUR for 43.00 PLN (0.232558139535 EUR per PLN), 6.15 EUR back for ¥1000.
  ids.pln = await book({
    amount: -10_00,
    originalAmount: -43_00,
    originalCurrency: 'PLN',
    merchant: 'Żabka',
    description: 'Card',
  });
  ids.jpy = await book({ amount: 6_15, originalAmount: 1_000, originalCurrency: 'JPY', description: 'Refund' });
  ids.plain = await book({ amount: -2_00, description: 'Plain' });
  ids.pending = await book({
    amount: -9_00,
    originalAmount: -9_99,
    originalCurrency: 'USD',
    status: 'pending',
    description: 'Hold',
  });
}, 120_000);
afterAll(() => app?.close());

const CONVERSIONS = {
  pln: { original: ['43.00', 'PLN'], rate: '0.232558139535', camtRate: '0.2325581395' },
  jpy: { original: ['1000', 'JPY'], rate: '0.006150000000', camtRate: '0.00615' },
  pending: { original: ['9.99', 'USD'], rate: '0.900900900901', camtRate: '0.9009009009' },
} as const;

describe('GoCardless: currencyExchange, with nordigen-node', () => {
  it('carries sourceCurrency, exchangeRate, unitCurrency, targetCurrency and instructedAmount on converted entries only', async () => {
    const nordigen = await gocardlessCalls(() => app).client(user);
    const session = await nordigen.initSession({
      redirectUrl: 'https://budget.example/callback',
      institutionId: SANDBOX,
      referenceId: 'abroad',
      maxHistoricalDays: 90,
      accessValidForDays: 30,
    });
    const requisition = await nordigen.requisition.getRequisitionById(session.id);
    const { transactions } = await nordigen.account((requisition.accounts as string[])[0] ?? '').getTransactions();
    type Wire = { transactionId: string; transactionAmount: { amount: string; currency: string }; currencyExchange?: unknown };
    const all = [...(transactions.booked as Wire[]), ...(transactions.pending as Wire[])];
    const byId = (id: string) => all.find((t) => t.transactionId === id);
    for (const key of ['pln', 'jpy', 'pending'] as const) {
      const { original, rate } = CONVERSIONS[key];
      const wire = byId(ids[key]);
      expect(wire?.transactionAmount.currency, key).toBe('EUR');
      expect(wire?.currencyExchange, key).toEqual([
        {
          sourceCurrency: original[1],
          exchangeRate: rate,
          unitCurrency: original[1],
          targetCurrency: 'EUR',
          quotationDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          instructedAmount: { amount: key === 'jpy' ? original[0] : `-${original[0]}`, currency: original[1] },
        },
      ]);
    }
    expect(byId(ids.plain)).not.toHaveProperty('currencyExchange');
    expect(app.faceProblems).toEqual([]);
  });
});

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => name === 'Ntry',
});
type Entry = { AcctSvcrRef: string; Amt: { '#text': string; '@Ccy': string }; NtryDtls: { TxDtls: Record<string, unknown> } };

const entriesOf = (text: string, message: 'camt.053' | 'camt.052'): Entry[] => {
  const doc = xml.parse(text).Document;
  const root = message === 'camt.053' ? doc.BkToCstmrStmt.Stmt : doc.BkToCstmrAcctRpt.Rpt;
  return root.Ntry;
};

describe.each([
  ['camt.053', 'camt.053'],
  ['camt.053', 'camt.053&version=08'],
  ['camt.052', 'camt.052'],
] as const)('%s (%s): AmtDtls/InstdAmt with CcyXchg', (message, format) => {
  it('names the merchant’s amount and currency and the rate, after Refs; other entries have none', async () => {
    const file = await download(app, `/v1/accounts/${accountId}/statement?format=${format}`, user.accessToken);
    expect(file.status, file.text).toBe(200);
    const entries = entriesOf(file.text, message);
    const byRef = (id: string) => entries.find((e) => e.AcctSvcrRef === id.replaceAll('-', ''));
    const keys = message === 'camt.052' ? (['pln', 'jpy', 'pending'] as const) : (['pln', 'jpy'] as const);
    for (const key of keys) {
      const { original, camtRate } = CONVERSIONS[key];
      const details = byRef(ids[key])?.NtryDtls.TxDtls;
      expect(Object.keys(details ?? {}).slice(0, 2), key).toEqual(['Refs', 'AmtDtls']);
      expect(details?.AmtDtls, key).toEqual({
        InstdAmt: {
          Amt: { '#text': original[0], '@Ccy': original[1] },
          CcyXchg: { SrcCcy: original[1], TrgtCcy: 'EUR', UnitCcy: original[1], XchgRate: camtRate },
        },
      });
      expect(byRef(ids[key])?.Amt['@Ccy']).toBe('EUR');
    }
    expect(byRef(ids.plain)?.NtryDtls.TxDtls).not.toHaveProperty('AmtDtls');
  });
});

describe('camt.053 with converted entries, read by importers', () => {
  it('AqBanking and iso20022.js still read every entry in the account’s currency', async () => {
    const file = await download(app, `/v1/accounts/${accountId}/statement?format=camt.053`, user.accessToken);
    const read = aqbankingValues(file.bytes, 'camt');
    expect(read.transactions.map((value) => value.split(':')[1])).toEqual(['EUR', 'EUR', 'EUR', 'EUR']);
    const [statement] = CashManagementEndOfDayReport.fromXML(file.text).statements;
    expect(statement?.entries.map((entry) => [entry.amount, entry.currency])).toEqual([
      [500_00, 'EUR'],
      [10_00, 'EUR'],
      [6_15, 'EUR'],
      [2_00, 'EUR'],
    ]);
  });
});

describe('OFX: ORIGCURRENCY, with ofx-js', () => {
  it.each(['ofx', 'ofx1'])('%s: CURRATE and CURSYM on converted entries, TRNAMT in CURDEF', async (format) => {
    const file = await download(app, `/v1/accounts/${accountId}/statement?format=${format}`, user.accessToken);
    expect(file.status, file.text).toBe(200);
    const statement = parseSync(file.text).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.CURDEF).toBe('EUR');
    type Row = { FITID: string; TRNAMT: string; ORIGCURRENCY?: { CURRATE: string; CURSYM: string } };
    const rows = [statement.BANKTRANLIST.STMTTRN].flat() as Row[];
    const byId = (id: string) => rows.find((row) => row.FITID === id);
    expect(byId(ids.pln)).toMatchObject({ TRNAMT: '-10.00', ORIGCURRENCY: { CURRATE: '0.2325581395', CURSYM: 'PLN' } });
    expect(byId(ids.jpy)).toMatchObject({ TRNAMT: '6.15', ORIGCURRENCY: { CURRATE: '0.00615', CURSYM: 'JPY' } });
    expect(byId(ids.plain)).not.toHaveProperty('ORIGCURRENCY');
  });
});

describe('Plaid: iso_currency_code stays the account’s, with the official SDK', () => {
  it('a converted entry is an EUR amount', async () => {
    const client = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(client);
    const ledger = new AppLedger(client, accessToken);
    await ledger.syncUntil(() => ledger.transactions.size === 5);
    const pln = [...ledger.transactions.values()].find((t) => t.transaction_id.includes(ids.pln) || t.name === 'Card');
    expect(pln).toMatchObject({ amount: 10, iso_currency_code: 'EUR', unofficial_currency_code: null });
  });
});
