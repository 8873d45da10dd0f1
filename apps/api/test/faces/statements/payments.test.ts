/**
 * Payments in statements (docs/concepts/payments.md), each format read back by a parser Sandbank did
 * not write: camt.053 (npm `iso20022.js`) names a payment's other side with its IBAN (`RltdPties`
 * Cdtr/CdtrAcct of money out, Dbtr/DbtrAcct of money in) and carries the payment's `EndToEndId`;
 * MT940 (npm `mt940js`) has the other side's name in `:86:` `<27`–`<28`, its IBAN in `<38` and the
 * EndToEndId as `:61:`'s reference; OFX (npm `ofx-js`) has it as NAME, BANKACCTTO and REFNUM.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { Parser } from 'mt940js';
import { parseSync } from 'ofx-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../../helpers.ts';
import { download } from './statement-world.ts';

const RENT = { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski', endToEndId: 'E2EOUT0001' };
const INVOICE = { iban: 'PL27114020040000300201355387', name: 'ACME sp. z o.o.', endToEndId: 'E2EIN0001' };

let app: TestApp;
let user: TestUser;
let accountId: string;
beforeAll(async () => {
  app = await startTestApp();
  user = await app.createUser();
  accountId = await openAccount(app, user, 'Konto');
  expect((await simulate(app, user, { accountId, amount: 1_000_00 })).status).toBe(201);
  const out = await app.call('POST', '/v1/payments', {
    token: user.accessToken,
    body: {
      fromAccountId: accountId,
      to: { iban: RENT.iban, name: RENT.name },
      amount: 120_00,
      scheme: 'express_elixir',
      description: 'Czynsz',
      endToEndId: RENT.endToEndId,
    },
  });
  expect(out.body.data?.status, JSON.stringify(out.body)).toBe('ACSC');
  const incoming = await app.call('POST', '/v1/simulations/incoming-payment', {
    token: user.accessToken,
    body: {
      accountId,
      amount: 50_00,
      scheme: 'express_elixir',
      debtorName: INVOICE.name,
      debtorIban: INVOICE.iban,
      description: 'Faktura 42',
      endToEndId: INVOICE.endToEndId,
    },
  });
  expect(incoming.status).toBe(201);
});
afterAll(() => app.close());

const statement = async (format: string) => {
  const file = await download(app, `/v1/accounts/${accountId}/statement?format=${format}`, user.accessToken);
  expect(file.status, file.text).toBe(200);
  return file.text;
};

it('camt.053 shows the creditor and debtor of payments with their IBANs and EndToEndIds', async () => {
  const file = { text: await statement('camt.053') };
  const [camt] = CashManagementEndOfDayReport.fromXML(file.text).statements;
  const byInfo = (start: string) => camt?.entries.find((entry) => entry.additionalInformation?.startsWith(start));
  expect(byInfo('Czynsz')?.transactions[0]).toMatchObject({
    creditor: { name: RENT.name, account: { iban: RENT.iban } },
  });
  expect(byInfo('Faktura 42')?.transactions[0]).toMatchObject({
    debtor: { name: INVOICE.name, account: { iban: INVOICE.iban } },
  });
  // iso20022.js does not read EndToEndId: each entry's own Refs carry the payment's.
  for (const { endToEndId } of [RENT, INVOICE]) expect(file.text).toContain(`<EndToEndId>${endToEndId}</EndToEndId>`);
});

it('MT940 names the other side in :86: <27 and its IBAN in <38, with the EndToEndId as the reference', async () => {
  const [mt940] = new Parser().parse(await statement('mt940'));
  const byDetails = (text: string) => mt940?.transactions.find((t) => t.details.replaceAll('\n', '').includes(text));
  for (const [party, description, amount] of [
    [RENT, 'Czynsz', -120],
    [INVOICE, 'Faktura 42', 50],
  ] as const) {
    const found = byDetails(`<20${description}`);
    expect(found?.amount).toBe(amount);
    expect(found?.reference).toBe(party.endToEndId);
    const details = found?.details.replaceAll('\n', '') ?? '';
    expect(details).toContain(`<27${party.name}`);
    expect(details).toContain(`<38${party.iban}`);
  }
});

it('OFX names the other side as NAME with its account as BANKACCTTO, and the EndToEndId as REFNUM', async () => {
  for (const format of ['ofx', 'ofx1']) {
    const parsed = parseSync(await statement(format));
    const list = parsed.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS.BANKTRANLIST.STMTTRN as Record<string, unknown>[];
    const byMemo = (memo: string) => list.find((t) => t.MEMO === memo);
    expect(byMemo('Czynsz')).toMatchObject({
      TRNAMT: '-120.00',
      NAME: RENT.name,
      REFNUM: RENT.endToEndId,
      BANKACCTTO: { BANKID: '10901014', ACCTID: '0000071219812874', ACCTTYPE: 'CHECKING', ACCTKEY: '61' },
    });
    expect(byMemo('Faktura 42')).toMatchObject({
      TRNAMT: '50.00',
      NAME: INVOICE.name,
      REFNUM: INVOICE.endToEndId,
      BANKACCTTO: { BANKID: '11402004', ACCTID: '0000300201355387', ACCTKEY: '27' },
    });
  }
});
