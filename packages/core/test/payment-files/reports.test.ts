/**
 * The documents Sandbank writes about payment files: the pain.002.001.10 status report and the
 * camt.054.001.08 notifications. Each one is validated by Debian's `xmllint --schema` against the
 * official XSD and read back by code Sandbank did not write: npm `iso20022.js` for pain.002, and
 * `xmllint --xpath` for camt.054 (no npm parser reads camt.054).
 */
import { PaymentStatusReport } from 'iso20022.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCamt054, type NotificationEntry } from '../../src/domain/payment-files/camt054.ts';
import {
  buildPain002,
  groupStatus,
  type StatusReportInput,
  type StatusReportTransaction,
} from '../../src/domain/payment-files/pain002.ts';
import { EXAMPLE_REPORT as REPORT } from './fixtures.ts';
import { ensureXmllint, localPath, xmllintSchema, xmllintXpath } from './xmllint.ts';

beforeAll(() => {
  ensureXmllint();
}, 120_000);

const validated = (xml: string, message: string) => {
  const result = xmllintSchema(xml, message);
  expect(result.output).toMatch(/validates/);
  expect(result.ok).toBe(true);
  return xml;
};

describe('pain.002.001.10 status report', () => {
  it('is PART when outcomes differ, each block and transaction with its status and reason (read by xmllint)', () => {
    const xml = validated(buildPain002(REPORT), 'pain.002.001.10');
    const at = (steps: string) => xmllintXpath(xml, `string(//${localPath(steps)})`);
    expect(at('GrpHdr/MsgId')).toBe('SBPSR0001');
    expect(at('OrgnlGrpInfAndSts/OrgnlMsgId')).toBe('ACME-2026-11-30-001');
    expect(at('OrgnlGrpInfAndSts/OrgnlMsgNmId')).toBe('pain.001.001.09');
    expect(at('OrgnlGrpInfAndSts/OrgnlNbOfTxs')).toBe('3');
    expect(at('OrgnlGrpInfAndSts/GrpSts')).toBe('PART');
    expect(xmllintXpath(xml, `count(//${localPath('OrgnlGrpInfAndSts/NbOfTxsPerSts')})`)).toBe('3');
    expect(at('OrgnlPmtInfAndSts[1]/PmtInfSts')).toBe('PART');
    expect(at('OrgnlPmtInfAndSts[2]/PmtInfSts')).toBe('ACSP');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/OrgnlEndToEndId')).toBe('INV-2026-0415');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/TxSts')).toBe('ACSC');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/AccptncDtTm')).toBe('2026-11-30T08:15:01.000Z');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/AcctSvcrRef')).toBe('0192f3a45b6c7d8e9f00112233445566');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/OrgnlTxRef/Amt/InstdAmt')).toBe('1200.00');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/TxSts')).toBe('RJCT');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/StsRsnInf/Rsn/Cd')).toBe('AC04');
    expect(at('OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/StsRsnInf/AddtlInf')).toBe(
      "Closed account: the creditor's account is closed & cannot be credited",
    );
    expect(at('OrgnlPmtInfAndSts[2]/TxInfAndSts/OrgnlInstrId')).toBe('ACME-EUR-1-1');
  });

  it('is read back by iso20022.js: statuses, reasons and end-to-end ids', () => {
    // iso20022.js 0.0.15 knows no PART (its PartiallyAccepted is "ACCP"), so its report has one outcome: rejections.
    const transactions: StatusReportTransaction[] = [
      { endToEndId: 'INV-1', status: 'RJCT', reason: { code: 'AM04', message: 'Insufficient funds' } },
      { endToEndId: 'INV-2', status: 'RJCT', reason: { code: 'AC01', message: 'Wrong account number' } },
    ];
    const rejected: StatusReportInput = { ...REPORT, blocks: [{ paymentInformationId: 'ACME-PLN-1', transactions }] };
    const report = PaymentStatusReport.fromXML(validated(buildPain002(rejected), 'pain.002.001.10'));
    expect(report.messageId).toBe('SBPSR0001');
    expect(report.originalMessageId).toBe('ACME-2026-11-30-001');
    expect(report.initatingParty.name).toBe('Acme Sp. z o.o.');
    expect(report.statusInformations).toEqual([
      expect.objectContaining({ type: 'group', status: 'RJCT' }),
      expect.objectContaining({ type: 'payment', originalPaymentId: 'ACME-PLN-1', status: 'RJCT' }),
      // It looks for a transaction's AddtlInf inside Rsn, where the XSD has none (it is Rsn's sibling, as we write it).
      { type: 'transaction', originalEndToEndId: 'INV-1', status: 'RJCT', reason: expect.objectContaining({ code: 'AM04' }) },
      { type: 'transaction', originalEndToEndId: 'INV-2', status: 'RJCT', reason: expect.objectContaining({ code: 'AC01' }) },
    ]);
  });

  it('has the common status when all agree, RCVD for none', () => {
    expect(groupStatus(['RJCT', 'RJCT'])).toBe('RJCT');
    expect(groupStatus(['ACSC', 'ACSP'])).toBe('PART');
    expect(groupStatus([])).toBe('RCVD');
    const allSettled: StatusReportInput = {
      ...REPORT,
      blocks: [
        {
          paymentInformationId: 'B',
          transactions: [
            { endToEndId: 'A', status: 'ACSC' },
            { endToEndId: 'B', status: 'ACSC' },
          ],
        },
      ],
    };
    const xml = validated(buildPain002(allSettled), 'pain.002.001.10');
    expect(PaymentStatusReport.fromXML(xml).statusInformations[0]).toMatchObject({ type: 'group', status: 'ACSC' });
    // RCVD and CANC are valid ISO codes, which iso20022.js does not know: xmllint reads them.
    const early = buildPain002({
      ...REPORT,
      blocks: [
        {
          paymentInformationId: 'B',
          transactions: [
            { endToEndId: 'A', status: 'RCVD' },
            { endToEndId: 'B', status: 'CANC' },
          ],
        },
      ],
    });
    validated(early, 'pain.002.001.10');
    expect(xmllintXpath(early, `string(//${localPath('TxInfAndSts[2]/TxSts')})`)).toBe('CANC');
  });

  it('keeps long and hostile reason text within Max105Text, one line, escaped', () => {
    const message = `${'Bardzo długi powód odrzucenia '.repeat(10)}\u0001\u0007 end`;
    const xml = validated(
      buildPain002({
        ...REPORT,
        blocks: [
          { paymentInformationId: 'B', transactions: [{ endToEndId: 'A', status: 'RJCT', reason: { code: 'MS03', message } }] },
        ],
      }),
      'pain.002.001.10',
    );
    const lines = xmllintXpath(xml, `count(//${localPath('StsRsnInf/AddtlInf')})`);
    expect(Number(lines)).toBe(3);
  });

  it('refuses an identifier that does not fit Max35Text rather than cutting it', () => {
    expect(() => buildPain002({ ...REPORT, messageId: 'x'.repeat(36) })).toThrow(/Not a Max35Text identifier/);
  });
});

const entry = (fields: Partial<NotificationEntry>): NotificationEntry => ({
  transactionId: '0192f3a4-5b6c-7d8e-9f00-000000000001',
  amount: 1n,
  direction: 'debit',
  status: 'BOOK',
  bookingDate: '2026-12-01',
  valueDate: '2026-12-01',
  endToEndId: null,
  counterparty: { name: null, iban: null },
  remittance: null,
  ...fields,
});

describe('camt.054.001.08 notifications', () => {
  it('lists debits and credits with counterparty, EndToEndId and exact amounts (PLN, JPY, KWD, 10^13)', () => {
    const cases = [
      { currency: 'PLN', amount: 10n ** 13n, text: '100000000000.00' },
      { currency: 'JPY', amount: 10n ** 13n, text: '10000000000000' },
      { currency: 'KWD', amount: 10n ** 13n + 1n, text: '10000000000.001' },
    ];
    for (const { currency, amount, text } of cases) {
      const xml = validated(
        buildCamt054({
          messageId: 'SBNTF0001',
          createdAt: '2026-12-01T10:00:00Z',
          account: {
            iban: 'PL27114020040000300201355387',
            currency,
            name: 'Acme main',
            ownerName: 'Acme Sp. z o.o.',
            bic: 'SNDBPLPWXXX',
          },
          period: { from: '2026-12-01T00:00:00Z', to: '2026-12-02T00:00:00Z' },
          entries: [
            entry({
              amount,
              endToEndId: 'INV-2026-0415',
              counterparty: { name: 'Jan Kowalski & Syn <Sp. j.>', iban: 'PL61109010140000071219812874' },
              remittance: 'Faktura\n2026/0415',
            }),
            entry({
              transactionId: '0192f3a4-5b6c-7d8e-9f00-000000000002',
              amount: 5n,
              direction: 'credit',
              status: 'PDNG',
              bookingDate: null,
              counterparty: { name: 'Muster GmbH', iban: 'DE89370400440532013000' },
            }),
          ],
        }),
        'camt.054.001.08',
      );
      const at = (steps: string) => xmllintXpath(xml, `string(//${localPath(steps)})`);
      expect(at('Ntry[1]/Amt')).toBe(text);
      expect(at('Ntry[1]/CdtDbtInd')).toBe('DBIT');
      expect(at('Ntry[1]/NtryDtls/TxDtls/Refs/EndToEndId')).toBe('INV-2026-0415');
      expect(at('Ntry[1]/NtryDtls/TxDtls/RltdPties/Cdtr/Pty/Nm')).toBe('Jan Kowalski & Syn <Sp. j.>');
      expect(at('Ntry[1]/NtryDtls/TxDtls/RltdPties/CdtrAcct/Id/IBAN')).toBe('PL61109010140000071219812874');
      expect(at('Ntry[1]/NtryDtls/TxDtls/RmtInf/Ustrd')).toBe('Faktura 2026/0415');
      expect(at('Ntry[2]/CdtDbtInd')).toBe('CRDT');
      expect(at('Ntry[2]/Sts/Cd')).toBe('PDNG');
      expect(at('Ntry[2]/NtryDtls/TxDtls/Refs/EndToEndId')).toBe('NOTPROVIDED');
      expect(at('Ntry[2]/NtryDtls/TxDtls/RltdPties/Dbtr/Pty/Nm')).toBe('Muster GmbH');
      expect(at('Ntry[2]/NtryDtls/TxDtls/RltdPties/DbtrAcct/Id/IBAN')).toBe('DE89370400440532013000');
      expect(at('TxsSummry/TtlNtries/NbOfNtries')).toBe('2');
      expect(at('TxsSummry/TtlDbtNtries/Sum')).toBe(text);
      expect(at('TxsSummry/TtlNtries/TtlNetNtry/CdtDbtInd')).toBe('DBIT');
    }
  });

  it('is valid with no entries, and marks a return with RvslInd', () => {
    const base = {
      messageId: 'SBNTF0002',
      createdAt: new Date('2026-12-01T10:00:00Z'),
      account: { iban: 'PL27114020040000300201355387', currency: 'EUR' },
      period: { from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-02T00:00:00Z') },
    };
    validated(buildCamt054({ ...base, entries: [] }), 'camt.054.001.08');
    const xml = validated(
      buildCamt054({ ...base, entries: [entry({ direction: 'credit', reversal: true, amount: 250n })] }),
      'camt.054.001.08',
    );
    expect(xmllintXpath(xml, `string(//${localPath('Ntry/RvslInd')})`)).toBe('true');
    // An id that is no Max35Text (too long, or not one line) is not written as the end-to-end id.
    for (const endToEndId of ['x'.repeat(36), 'two\nlines']) {
      const long = validated(buildCamt054({ ...base, entries: [entry({ endToEndId })] }), 'camt.054.001.08');
      expect(xmllintXpath(long, `string(//${localPath('Ntry/NtryDtls/TxDtls/Refs/EndToEndId')})`)).toBe('NOTPROVIDED');
    }
    expect(xmllintXpath(xml, `string(//${localPath('Ntry/BkTxCd/Domn/Fmly/SubFmlyCd')})`)).toBe('RRTN');
    expect(() => buildCamt054({ ...base, entries: [entry({ amount: 0n })] })).toThrow(/above zero/);
    // A transaction's amount as the API holds it (a safe integer) writes the same document; a fraction is a bug.
    expect(buildCamt054({ ...base, entries: [entry({ amount: 250 })] })).toBe(
      buildCamt054({ ...base, entries: [entry({ amount: 250n })] }),
    );
    expect(() => buildCamt054({ ...base, entries: [entry({ amount: 2.5 })] })).toThrow(RangeError);
  });
});
