/**
 * Payment files over real HTTP (docs/guides/payment-files.md): a pain.001 uploaded as the body
 * becomes Payments in one database transaction; its pain.002 status report follows the payments as
 * the world's clock clears them (PART once a test IBAN is rejected in the session); the account's
 * camt.054 lists the payment legs. Every document Sandbank answers is validated by Debian's
 * `xmllint --schema` against the official XSD and read with `xmllint --xpath` — not by our reader.
 * A bad file is 400 and creates nothing; another user's file or account is 404.
 *
 * Dates are in June of next year (wholly in the future of every clock), as in payments-clearing.
 */
import { ibanOf } from '@sandbank/core';
import { simulate } from '@sandbank/testing/fixtures';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, type FixtureFile, pain001 } from '../../../packages/core/test/payment-files/fixtures.ts';
import { ensureXmllint, localPath, xmllintSchema, xmllintXpath } from '../../../packages/core/test/payment-files/xmllint.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  ensureXmllint();
  app = await startTestApp();
}, 180_000);
afterAll(() => app.close());

const YEAR = new Date().getUTCFullYear() + 1;
const FRIDAY = DateTime.fromObject({ year: YEAR, month: 6, day: 8 }, { zone: 'Europe/Warsaw' }).set({ weekday: 5 });
const friday = FRIDAY.day < 8 ? FRIDAY.plus({ weeks: 1 }) : FRIDAY;
const monday = friday.plus({ days: 3 });
const warsaw = (day: DateTime, time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return day.set({ hour, minute, second: 0, millisecond: 0 }).toUTC().toISO() as string;
};
/** A test IBAN (docs/concepts/payments.md#test-ibans): rejected in the session with AC04. */
const AC04_SESSION = 'PL94999000250000000000000201';

const advanceTo = (user: TestUser, to: string) =>
  app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to } });

async function openFunded(user: TestUser, currency: string, amount: number): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: `Main ${currency}`, currency } });
  expect(res.status).toBe(201);
  expect((await simulate(app, user, { accountId: res.body.data.id, amount })).status).toBe(201);
  return res.body.data.id;
}

/** Acme's world on a Friday after Elixir's last cut-off, a PLN and a EUR account funded. */
async function acme() {
  const user = await app.createUser();
  const pln = await openFunded(user, 'PLN', 10_000_00);
  const eur = await openFunded(user, 'EUR', 1_000_00);
  expect((await advanceTo(user, warsaw(friday, '16:00'))).status).toBe(200);
  return { user, pln, eur };
}

/** The guide's worked file, paid from these accounts on that Friday; the second invoice to `secondIban`. */
function guideFile(pln: string, eur: string, secondIban = 'PL10105000997603123456789123'): string {
  const day = friday.toISODate() as string;
  const [plnBlock, eurBlock] = EXAMPLE.blocks;
  const file: FixtureFile = {
    ...EXAMPLE,
    blocks: [
      {
        ...plnBlock!,
        debtorIban: ibanOf(pln),
        date: day,
        transactions: [plnBlock!.transactions[0]!, { ...plnBlock!.transactions[1]!, creditorIban: secondIban }],
      },
      { ...eurBlock!, debtorIban: ibanOf(eur), date: day },
    ],
  };
  const xml = pain001(file);
  const check = xmllintSchema(xml, 'pain.001.001.09');
  expect(check.output).toContain('validates');
  return xml;
}

const upload = (user: TestUser | null, body: string, contentType = 'application/xml') =>
  fetch(`${app.url}/v1/payment-files`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(user ? { authorization: `Bearer ${user.accessToken}` } : {}) },
    body,
  });

async function getXml(user: TestUser, path: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${user.accessToken}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function countsOf(userId: string) {
  const { rows } = await app.db.query<{ payments: number; files: number; held: string }>(
    `select (select count(*)::int from payments where user_id = $1) as payments,
            (select count(*)::int from payment_files where user_id = $1) as files,
            (select coalesce(sum(held_amount), 0)::text from accounts where user_id = $1) as held`,
    [userId],
  );
  return rows[0]!;
}

const reportPath = (steps: string) => `string(/${localPath(`Document/CstmrPmtStsRpt/${steps}`)})`;
const txOf = (endToEndId: string, field: string) =>
  `string(//*[local-name()='TxInfAndSts'][*[local-name()='OrgnlEndToEndId']='${endToEndId}']/${localPath(field)})`;

describe('POST /v1/payment-files, then the status report as the session clears', () => {
  it('books the guide file as 3 payments (ACTC), reports ACTC, then PART with AC04 after the clock passes the sessions', async () => {
    const { user, pln, eur } = await acme();
    const res = await upload(user, guideFile(pln, eur, AC04_SESSION));
    const body = (await res.json()) as { data: Record<string, unknown> & { payments: Record<string, unknown>[] } };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({
      messageId: 'ACME-2026-11-30-001',
      messageNameId: 'pain.001.001.09',
      numberOfTransactions: 3,
      statusCounts: { ACTC: 3 },
      groupStatus: 'ACTC',
    });
    expect(body.data.payments.map((p) => [p.endToEndId, p.fromAccountId, p.amount, p.currency, p.scheme, p.status])).toEqual([
      ['INV-2026-0415', pln, 120_000, 'PLN', 'elixir', 'ACTC'],
      ['INV-2026-0416', pln, 30_050, 'PLN', 'elixir', 'ACTC'],
      ['PO-88231', eur, 25_000, 'EUR', 'sepa', 'ACTC'],
    ]);
    expect(body.data.payments[0]).toMatchObject({ to: { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' } });
    expect(body.data.payments[0]!.description).toBe('Faktura 2026/0415');
    const { rows } = await app.db.query(
      'select end_to_end_id, payment_file_position from payments where payment_file_id = $1 order by payment_file_position',
      [body.data.id],
    );
    expect(rows.map((row) => row.end_to_end_id)).toEqual(['INV-2026-0415', 'INV-2026-0416', 'PO-88231']);

    const first = await getXml(user, `/v1/payment-files/${body.data.id}/status-report`);
    expect(first.status).toBe(200);
    expect(first.type).toContain('application/xml');
    expect(xmllintSchema(first.text, 'pain.002.001.10').output).toContain('validates');
    expect(xmllintXpath(first.text, reportPath('OrgnlGrpInfAndSts/GrpSts'))).toBe('ACTC');
    expect(xmllintXpath(first.text, reportPath('OrgnlGrpInfAndSts/OrgnlMsgId'))).toBe('ACME-2026-11-30-001');

    // Elixir: Monday's sessions (the second invoice rejected there); SEPA: Monday's cycle, settled Tuesday 09:00.
    expect((await advanceTo(user, warsaw(monday.plus({ days: 1 }), '12:00'))).status).toBe(200);
    const later = await getXml(user, `/v1/payment-files/${body.data.id}/status-report`);
    expect(xmllintSchema(later.text, 'pain.002.001.10').output).toContain('validates');
    expect(xmllintXpath(later.text, reportPath('OrgnlGrpInfAndSts/GrpSts'))).toBe('PART');
    expect(xmllintXpath(later.text, txOf('INV-2026-0415', 'TxSts'))).toBe('ACSC');
    expect(xmllintXpath(later.text, txOf('INV-2026-0416', 'TxSts'))).toBe('RJCT');
    expect(xmllintXpath(later.text, txOf('INV-2026-0416', 'StsRsnInf/Rsn/Cd'))).toBe('AC04');
    expect(xmllintXpath(later.text, txOf('PO-88231', 'TxSts'))).toBe('ACSC');
    expect(xmllintXpath(later.text, txOf('PO-88231', 'OrgnlInstrId'))).toBe('ACME-EUR-1-1');
    expect(xmllintXpath(later.text, `string(//*[local-name()='OrgnlPmtInfAndSts'][1]/*[local-name()='PmtInfSts'])`)).toBe('PART');
    expect(xmllintXpath(later.text, `string(//*[local-name()='OrgnlPmtInfAndSts'][2]/*[local-name()='PmtInfSts'])`)).toBe('ACSC');

    // camt.054 of the PLN account: the settled debit with its creditor and EndToEndId; the rejected one's hold is gone.
    const from = encodeURIComponent(warsaw(friday, '00:00'));
    const to = encodeURIComponent(warsaw(monday.plus({ days: 2 }), '00:00'));
    const camt = await getXml(user, `/v1/accounts/${pln}/notifications?format=camt.054&from=${from}&to=${to}`);
    expect(camt.status, camt.text).toBe(200);
    expect(xmllintSchema(camt.text, 'camt.054.001.08').output).toContain('validates');
    const entry = (field: string) =>
      xmllintXpath(
        camt.text,
        `string(//*[local-name()='Ntry'][.//*[local-name()='EndToEndId']='INV-2026-0415']/${localPath(field)})`,
      );
    expect(entry('Amt')).toBe('1200.00');
    expect(entry('CdtDbtInd')).toBe('DBIT');
    expect(entry('Sts/Cd')).toBe('BOOK');
    expect(entry('NtryDtls/TxDtls/RltdPties/Cdtr/Pty/Nm')).toBe('Jan Kowalski');
    expect(entry('NtryDtls/TxDtls/RltdPties/CdtrAcct/Id/IBAN')).toBe('PL61109010140000071219812874');
    expect(xmllintXpath(camt.text, `count(//*[local-name()='EndToEndId'][.='INV-2026-0416'])`)).toBe('0');
    expect(xmllintXpath(camt.text, `string(//*[local-name()='Acct']/*[local-name()='Id']/*[local-name()='IBAN'])`)).toBe(
      ibanOf(pln),
    );
  });
});

describe('a refused file creates nothing', () => {
  it('answers 400 with the XSD complaint for a malformed amount, and no payment or file exists', async () => {
    const { user, pln, eur } = await acme();
    const bad = guideFile(pln, eur).replace('>1200.00<', '>1200,00<');
    const res = await upload(user, bad);
    const body = (await res.json()) as { code: string; details: { path: string; message: string }[] };
    expect(res.status).toBe(400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details[0]!.message).toContain('InstdAmt');
    expect(body.details[0]!.path).toMatch(/^line \d+/);
    expect(await countsOf(user.id)).toEqual({ payments: 0, files: 0, held: '0' });
  });

  it("answers 400 for a debtor IBAN that is not one of the user's accounts, naming it, and books none of the file", async () => {
    const { user, pln } = await acme();
    const other = await acme();
    const res = await upload(user, guideFile(pln, other.eur));
    const body = (await res.json()) as { code: string; message: string; details: { path: string }[] };
    expect(res.status).toBe(400);
    expect(body.message).toContain(ibanOf(other.eur));
    expect(body.details[0]!.path).toContain('DbtrAcct');
    expect(await countsOf(user.id)).toEqual({ payments: 0, files: 0, held: '0' });
  });

  it('rolls back the payments already booked when a later transaction is refused by the payments domain', async () => {
    const { user, pln, eur } = await acme();
    // The EUR block asks for a date 2 years ahead: the payments domain refuses it after the PLN block is booked.
    const far = friday.plus({ years: 2 }).toISODate() as string;
    const xml = guideFile(pln, eur).replace(
      /(<PmtInfId>ACME-EUR-1<\/PmtInfId>[\s\S]*?<Dt>)[^<]+(<\/Dt>)/,
      (_all, start: string, end: string) => `${start}${far}${end}`,
    );
    expect(xml).toContain(far);
    const res = await upload(user, xml);
    const body = (await res.json()) as { code: string; message: string };
    expect(res.status).toBe(400);
    expect(body.message).toContain('PO-88231');
    expect(await countsOf(user.id)).toEqual({ payments: 0, files: 0, held: '0' });
  });

  it('answers 415 for a JSON body, 401 without a token, and 413 past 10 MiB', async () => {
    const { user } = await acme();
    expect((await upload(user, '{}', 'application/json')).status).toBe(415);
    expect((await upload(null, '<x/>')).status).toBe(401);
    const huge = await upload(user, `<x>${'a'.repeat(10 * 1024 * 1024)}</x>`);
    expect(huge.status).toBe(413);
    expect(await countsOf(user.id)).toEqual({ payments: 0, files: 0, held: '0' });
  });
});

describe("another user's file or account", () => {
  it('is 404 for the status report and the notifications; a bad period is 400', async () => {
    const { user, pln, eur } = await acme();
    const res = await upload(user, guideFile(pln, eur));
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: string } };
    const stranger = await app.createUser();
    const report = await getXml(stranger, `/v1/payment-files/${data.id}/status-report`);
    expect(report.status).toBe(404);
    expect(JSON.parse(report.text).code).toBe('NOT_FOUND');
    const from = encodeURIComponent(warsaw(friday, '00:00'));
    const to = encodeURIComponent(warsaw(monday, '00:00'));
    const camt = await getXml(stranger, `/v1/accounts/${pln}/notifications?format=camt.054&from=${from}&to=${to}`);
    expect(camt.status).toBe(404);
    expect((await getXml(user, `/v1/accounts/${pln}/notifications?format=camt.053&from=${from}&to=${to}`)).status).toBe(400);
    expect((await getXml(user, `/v1/accounts/${pln}/notifications?format=camt.054&from=${to}&to=${from}`)).status).toBe(400);
  });
});

describe('files racing for one account', () => {
  it('never hold more than the balance: of 6 concurrent files of 300.00 PLN against 1,000.00, 3 are ACTC and 3 RJCT/AM04', async () => {
    const user = await app.createUser();
    const pln = await openFunded(user, 'PLN', 1_000_00);
    expect((await advanceTo(user, warsaw(friday, '16:00'))).status).toBe(200);
    const file = (n: number) =>
      pain001({
        version: '09',
        messageId: `RACE-${n}`,
        createdAt: '2026-11-30T09:15:00+01:00',
        initiatingParty: 'Acme',
        blocks: [
          {
            id: `RACE-${n}`,
            debtorIban: ibanOf(pln),
            date: friday.toISODate() as string,
            transactions: [{ endToEndId: `RACE-${n}`, amount: '300.00', currency: 'PLN' }],
          },
        ],
      });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => (await upload(user, file(n))).json()));
    const statuses = answers.map(
      (body) => (body as { data: { payments: { status: string; statusReason: unknown }[] } }).data.payments[0]!,
    );
    expect(statuses.filter((p) => p.status === 'ACTC')).toHaveLength(3);
    expect(statuses.filter((p) => p.status === 'RJCT').map((p) => p.statusReason)).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ code: 'AM04' })),
    );
    const { rows } = await app.db.query('select balance::text, held_amount::text from accounts where id = $1', [pln]);
    expect(rows[0]).toEqual({ balance: '100000', held_amount: '90000' });
  });
});

describe('a reset world', () => {
  it('keeps no payment file: its status report is 404 after POST /v1/sandbox/reset', async () => {
    const { user, pln, eur } = await acme();
    const res = await upload(user, guideFile(pln, eur));
    const { data } = (await res.json()) as { data: { id: string } };
    expect((await getXml(user, `/v1/payment-files/${data.id}/status-report`)).status).toBe(200);
    expect((await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } })).status).toBe(
      200,
    );
    expect((await getXml(user, `/v1/payment-files/${data.id}/status-report`)).status).toBe(404);
    expect(await countsOf(user.id)).toEqual({ payments: 0, files: 0, held: '0' });
  });
});

describe('pain.001.001.03 and money coming in', () => {
  it('books a .03 file over SEPA Instant, and the camt.054 shows it (DBIT) beside an incoming credit (CRDT) with its debtor', async () => {
    const { user, eur } = await acme();
    const xml = pain001({
      version: '03',
      messageId: 'ACME-03-1',
      createdAt: '2026-11-30T09:15:00',
      initiatingParty: 'Acme',
      blocks: [
        {
          id: 'ACME-INST',
          debtorIban: ibanOf(eur),
          date: friday.toISODate() as string,
          localInstrument: 'INST',
          transactions: [
            {
              endToEndId: 'INST-1',
              amount: '12.34',
              currency: 'EUR',
              creditorName: 'Muster GmbH',
              creditorIban: 'DE89370400440532013000',
            },
          ],
        },
      ],
    });
    expect(xmllintSchema(xml, 'pain.001.001.03').output).toContain('validates');
    const res = await upload(user, xml);
    const body = (await res.json()) as { data: { messageNameId: string; payments: { scheme: string; status: string }[] } };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data.messageNameId).toBe('pain.001.001.03');
    expect(body.data.payments).toEqual([expect.objectContaining({ scheme: 'sepa_instant', status: 'ACSC' })]);
    const incoming = await app.call('POST', '/v1/simulations/incoming-payment', {
      token: user.accessToken,
      body: {
        accountId: eur,
        amount: 50_00,
        debtorName: 'Kunde AG',
        debtorIban: 'DE89370400440532013000',
        scheme: 'sepa_instant',
        description: 'Order 7',
      },
    });
    expect(incoming.status, JSON.stringify(incoming.body)).toBe(201);
    const from = encodeURIComponent(warsaw(friday, '00:00'));
    const to = encodeURIComponent(warsaw(friday.plus({ days: 1 }), '00:00'));
    const camt = await getXml(user, `/v1/accounts/${eur}/notifications?format=camt.054&from=${from}&to=${to}`);
    expect(camt.status, camt.text).toBe(200);
    expect(xmllintSchema(camt.text, 'camt.054.001.08').output).toContain('validates');
    expect(xmllintXpath(camt.text, `count(//*[local-name()='Ntry'])`)).toBe('2');
    const entry = (indicator: string, field: string) =>
      xmllintXpath(camt.text, `string(//*[local-name()='Ntry'][*[local-name()='CdtDbtInd']='${indicator}']/${localPath(field)})`);
    expect(entry('DBIT', 'Amt')).toBe('12.34');
    expect(entry('DBIT', 'NtryDtls/TxDtls/Refs/EndToEndId')).toBe('INST-1');
    expect(entry('CRDT', 'Amt')).toBe('50.00');
    expect(entry('CRDT', 'NtryDtls/TxDtls/RltdPties/Dbtr/Pty/Nm')).toBe('Kunde AG');
    expect(entry('CRDT', 'NtryDtls/TxDtls/RltdPties/DbtrAcct/Id/IBAN')).toBe('DE89370400440532013000');
  });
});

describe('the same file twice', () => {
  it('is 409 CONFLICT the second time (same MsgId), and pays once; another MsgId is a new file', async () => {
    const { user, pln, eur } = await acme();
    const xml = guideFile(pln, eur);
    expect((await upload(user, xml)).status).toBe(201);
    const again = await upload(user, xml);
    const body = (await again.json()) as { code: string; message: string };
    expect(again.status).toBe(409);
    expect(body).toMatchObject({ code: 'CONFLICT' });
    expect(body.message).toContain('ACME-2026-11-30-001');
    expect(await countsOf(user.id)).toMatchObject({ payments: 3, files: 1 });
    expect((await upload(user, xml.replace('ACME-2026-11-30-001', 'ACME-2026-11-30-002'))).status).toBe(201);
    expect(await countsOf(user.id)).toMatchObject({ payments: 6, files: 2 });
  });
});
