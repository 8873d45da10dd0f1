/**
 * pain.001 uploads read into typed instructions: every fixture is first checked by Debian's
 * `xmllint --schema` (so a file the tests call valid is valid by a validator Sandbank did not write),
 * then read by `parsePain001`; bad files fail with the XSD's complaint or Sandbank's rule, with lines.
 */
import { ISO20022 } from 'iso20022.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROBLEMS, PaymentFileError } from '../../src/domain/payment-files/errors.ts';
import {
  PAIN001_BOUNDS,
  type PaymentFile,
  type PaymentFileInstruction,
  parsePain001,
} from '../../src/domain/payment-files/pain001.ts';
import { MAX_AMOUNT } from '../../src/domain/simulations/simulate-transaction.ts';
import { EXAMPLE, type FixtureFile, pain001 } from './fixtures.ts';
import { ensureXmllint, xmllintSchema } from './xmllint.ts';

beforeAll(() => {
  ensureXmllint();
}, 120_000);

/** The file, proven valid by xmllint first, then parsed. */
function validAndParsed(xml: string, bounds = PAIN001_BOUNDS): PaymentFile {
  const version = /pain\.001\.001\.0[39]/.exec(xml)?.[0] ?? '';
  expect(xmllintSchema(xml, version)).toMatchObject({ ok: true });
  return parsePain001(xml, bounds);
}

/** The only instruction of a one-transaction file. */
function onlyInstruction(file: PaymentFile): PaymentFileInstruction {
  expect(file.instructions).toHaveLength(1);
  return file.instructions[0]!;
}

function refusal(file: string | Uint8Array, bounds = PAIN001_BOUNDS): PaymentFileError {
  try {
    parsePain001(file, bounds);
  } catch (error) {
    if (error instanceof PaymentFileError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const one = (
  tx: Partial<FixtureFile['blocks'][number]['transactions'][number]>,
  block: Partial<FixtureFile['blocks'][number]> = {},
): FixtureFile => ({
  version: '09',
  messageId: 'MSG-1',
  createdAt: '2026-11-30T09:00:00',
  initiatingParty: 'Acme',
  blocks: [
    { id: 'B1', date: '2026-12-01', ...block, transactions: [{ endToEndId: 'E2E-1', amount: '10.00', currency: 'PLN', ...tx }] },
  ],
});

describe('parsePain001 reads valid files', () => {
  it('reads the guide’s .09 example: two blocks, debtors, creditors, amounts in minor units, remittance, dates', () => {
    const file = validAndParsed(pain001(EXAMPLE));
    expect(file).toMatchObject({
      version: 'pain.001.001.09',
      messageId: 'ACME-2026-11-30-001',
      createdAt: '2026-11-30T09:15:00+01:00',
      initiatingPartyName: 'Acme Sp. z o.o.',
      numberOfTransactions: 3,
      controlSum: '1750.50',
    });
    expect(file.instructions).toEqual([
      expect.objectContaining({
        paymentInformationId: 'ACME-PLN-1',
        endToEndId: 'INV-2026-0415',
        debtor: { name: 'Acme Sp. z o.o.', iban: 'PL27114020040000300201355387', currency: null },
        creditor: { name: 'Jan Kowalski', iban: 'PL61109010140000071219812874', bic: null },
        amount: 120000n,
        currency: 'PLN',
        remittance: 'Faktura 2026/0415',
        requestedExecutionDate: '2026-12-01',
        serviceLevel: null,
      }),
      expect.objectContaining({
        endToEndId: 'INV-2026-0416',
        amount: 30050n,
        creditor: { name: 'Biuro Rachunkowe "Liczydło" & S-ka', iban: 'PL10105000997603123456789123', bic: null },
      }),
      expect.objectContaining({
        paymentInformationId: 'ACME-EUR-1',
        endToEndId: 'PO-88231',
        instructionId: 'ACME-EUR-1-1',
        debtor: expect.objectContaining({ iban: 'PL78114020040000370201355387' }),
        creditor: { name: 'Muster GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
        amount: 25000n,
        currency: 'EUR',
        serviceLevel: 'SEPA',
      }),
    ]);
    expect(file.instructions[0]?.line).toBeGreaterThan(1);
  });

  it('reads .03 files written by another library (iso20022.js)', () => {
    const iso = new ISO20022({
      initiatingParty: {
        name: 'Acme Sp. z o.o.',
        id: 'ACME',
        account: { iban: 'PL27114020040000300201355387' },
        agent: { bic: 'BREXPLPWXXX' },
      },
    });
    const address = {
      streetName: 'Prosta',
      buildingNumber: '1',
      townName: 'Warszawa',
      postalCode: '00-001',
      country: 'PL' as const,
    };
    const xml = iso
      .createSWIFTCreditPaymentInitiation([
        {
          type: 'swift',
          direction: 'credit',
          amount: 123456,
          currency: 'PLN',
          creditor: {
            name: 'Jan Kowalski',
            account: { iban: 'PL61109010140000071219812874' },
            agent: { bic: 'WBKPPLPPXXX' },
            address,
          },
          remittanceInformation: 'Invoice 7 & 8',
        },
      ])
      .serialize();
    const file = validAndParsed(xml);
    expect(file.version).toBe('pain.001.001.03');
    expect(file.instructions).toEqual([
      expect.objectContaining({
        debtor: expect.objectContaining({ iban: 'PL27114020040000300201355387', name: 'Acme Sp. z o.o.' }),
        creditor: { name: 'Jan Kowalski', iban: 'PL61109010140000071219812874', bic: 'WBKPPLPPXXX' },
        amount: 123456n,
        currency: 'PLN',
        remittance: 'Invoice 7 & 8',
        serviceLevel: 'URGP',
      }),
    ]);
    expect(file.instructions[0]?.requestedExecutionDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ['1500', 'JPY', 1500n],
    ['1.234', 'KWD', 1234n],
    ['0.001', 'KWD', 1n],
    ['12.340', 'PLN', 1234n],
    ['.5', 'EUR', 50n],
    ['7.', 'EUR', 700n],
    ['+3.10', 'USD', 310n],
    ['10000000000.00', 'PLN', 1_000_000_000_000n],
  ])('reads %s %s as %s minor units', (amount, currency, minor) => {
    expect(onlyInstruction(validAndParsed(pain001(one({ amount, currency })))).amount).toBe(minor);
  });

  it('keeps 10^13 minor units exact when the bound allows them (and refuses them at the default bound)', () => {
    const xml = pain001(one({ amount: '100000000000.00', currency: 'PLN' }));
    const wide = { ...PAIN001_BOUNDS, maxAmount: 10n ** 15n };
    expect(onlyInstruction(validAndParsed(xml, wide)).amount).toBe(10n ** 13n);
    expect(PAIN001_BOUNDS.maxAmount).toBe(BigInt(MAX_AMOUNT));
    expect(refusal(xml).problems[0]?.message).toMatch(/at most 1000000000000 minor units/);
    const kwd = pain001(one({ amount: '9999999999999.999', currency: 'KWD' }));
    expect(onlyInstruction(validAndParsed(kwd, { ...wide, maxAmount: 10n ** 17n })).amount).toBe(9_999_999_999_999_999n);
  });

  it('takes a file as bytes, with a byte-order mark', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(pain001(EXAMPLE))]);
    expect(parsePain001(bytes).instructions).toHaveLength(3);
  });
});

describe('parsePain001 refuses what it cannot pay, with the line and the reason', () => {
  it.each([
    ['1500.5', 'JPY', /1500\.5 JPY has 1 decimal places; JPY has 0/],
    ['1.2345', 'KWD', /1\.2345 KWD has 4 decimal places; KWD has 3/],
    ['0.001', 'PLN', /0\.001 PLN has 3 decimal places; PLN has 2/],
    ['1.00', 'BHD', /Currency BHD is not supported/],
    ['0.00', 'PLN', /must be above zero/],
  ])('%s %s', (amount, currency, message) => {
    const xml = pain001(one({ amount, currency }));
    expect(xmllintSchema(xml, 'pain.001.001.09').ok).toBe(true);
    const error = refusal(xml);
    expect(error.problems).toEqual([
      expect.objectContaining({ message: expect.stringMatching(message), path: 'PmtInf[1]/CdtTrfTxInf[1]/Amt/InstdAmt' }),
    ]);
    expect(error.problems[0]?.line).toBe(xml.split('\n').findIndex((line) => line.includes('<InstdAmt')) + 1);
  });

  it('gives the XSD’s complaint for a file the schema refuses, as xmllint does', () => {
    const xml = pain001(one({ amount: '12,34' }));
    const independent = xmllintSchema(xml, 'pain.001.001.09');
    expect(independent.ok).toBe(false);
    const error = refusal(xml);
    expect(error.message).toBe('The file is not a valid pain.001.001.09 document (XSD)');
    const line = xml.split('\n').findIndex((text) => text.includes('12,34')) + 1;
    expect(error.problems[0]).toMatchObject({ line, message: expect.stringContaining("'12,34' is not a valid value") });
    // Debian's libxml2 and the one compiled to WebAssembly say the same thing about the same line.
    expect(independent.output).toContain(`:${line}: element InstdAmt: Schemas validity error : ${error.problems[0]?.message}`);
    // The error contract's 400: one detail per problem, where and what.
    expect(error).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      details: [{ path: `line ${line}`, message: error.problems[0]?.message }],
    });
  });

  it('names a missing required element', () => {
    const xml = pain001(one({})).replace(/<EndToEndId>E2E-1<\/EndToEndId>/, '');
    const error = refusal(xml);
    expect(error.problems[0]?.message).toMatch(/PmtId.*Missing child element\(s\).*EndToEndId/s);
  });

  it('refuses bad IBANs (checksum), a missing creditor name, accounts without an IBAN, equivalent amounts, cheques', () => {
    const xml = pain001({
      ...one({}),
      blocks: [
        {
          id: 'B1',
          date: '2026-12-01',
          method: 'CHK',
          debtorAccountId: { Othr: { Id: '12345' } },
          transactions: [
            { endToEndId: 'A', amount: '1.00', currency: 'PLN', creditorIban: 'PL61109010140000071219812875' },
            { endToEndId: 'B', amount: '1.00', currency: 'PLN', creditorName: null },
            {
              endToEndId: 'C',
              amount: '1',
              currency: 'PLN',
              amountElement: { EqvtAmt: { Amt: { '@Ccy': 'EUR', '#text': '1' }, CcyOfTrf: 'PLN' } },
            },
          ],
        },
      ],
    });
    expect(xmllintSchema(xml, 'pain.001.001.09').ok).toBe(true);
    const messages = refusal(xml).problems.map((problem) => `${problem.path}: ${problem.message}`);
    expect(refusal(xml).details?.[2]).toEqual({
      path: `line ${xml.split('\n').findIndex((text) => text.includes('PL61109010140000071219812875')) + 1}: PmtInf[1]/CdtTrfTxInf[1]/CdtrAcct/Id/IBAN`,
      message: 'PL61109010140000071219812875 is not a valid IBAN (its checksum or length is wrong)',
    });
    expect(messages).toEqual([
      'PmtInf[1]: PmtMtd CHK is not supported: only credit transfers (TRF) are',
      'PmtInf[1]/DbtrAcct: The debtor account must be identified by an IBAN (Id/IBAN)',
      'PmtInf[1]/CdtTrfTxInf[1]/CdtrAcct/Id/IBAN: PL61109010140000071219812875 is not a valid IBAN (its checksum or length is wrong)',
      'PmtInf[1]/CdtTrfTxInf[2]: The creditor name (Cdtr/Nm) is required',
      'PmtInf[1]/CdtTrfTxInf[3]: Only an instructed amount (Amt/InstdAmt) is supported, not an equivalent amount',
    ]);
  });

  it('holds the file to its header: NbOfTxs and CtrlSum', () => {
    const xml = pain001({ ...EXAMPLE, numberOfTransactions: '4', controlSum: '1750.49' });
    expect(xmllintSchema(xml, 'pain.001.001.09').ok).toBe(true);
    expect(refusal(xml).problems.map((problem) => problem.message)).toEqual([
      'GrpHdr/NbOfTxs says 4; the file has 3 transactions',
      'GrpHdr/CtrlSum says 1750.49; the amounts add up to 1750.5',
    ]);
  });

  it('refuses other messages, other versions and XML that is not well-formed', () => {
    expect(refusal(pain001(EXAMPLE).replace('pain.001.001.09', 'pain.001.001.12')).message).toMatch(
      /Expected an ISO 20022 <Document> of pain\.001\.001\.09 or pain\.001\.001\.03; found <Document> in namespace urn:iso:std:iso:20022:tech:xsd:pain\.001\.001\.12/,
    );
    const broken = refusal(pain001(EXAMPLE).replace('</GrpHdr>', '</GrpHeader>'));
    expect(broken.message).toBe('The file is not well-formed XML');
    expect(broken.problems[0]).toMatchObject({ line: expect.any(Number), message: expect.stringMatching(/mismatch/) });
    expect(refusal('{"not":"xml"}').message).toBe('The file is not well-formed XML');
  });

  it('refuses DTDs and entities: no billion laughs, no external entity (XXE)', () => {
    const laughs = pain001(one({ remittance: ['&lol9;'] }))
      .replace('&amp;lol9;', '&lol9;')
      .replace('<Document', '<!DOCTYPE Document [<!ENTITY lol "lol"><!ENTITY lol9 "&lol;&lol;&lol;">]>\n<Document');
    expect(refusal(laughs).problems[0]).toEqual({ line: 2, message: 'A DOCTYPE (DTD) is not allowed in a payment file' });
    const xxe = pain001(one({})).replace('<Document', '<!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document');
    expect(refusal(xxe).message).toBe('A DOCTYPE (DTD) is not allowed in a payment file');
    // Without a DOCTYPE an entity is undeclared: libxml2 refuses it as not well-formed.
    const undeclared = pain001(one({ remittance: ['x'] })).replace('<Ustrd>x</Ustrd>', '<Ustrd>&x;</Ustrd>');
    expect(refusal(undeclared).problems[0]?.message).toMatch(/Entity 'x' not defined/);
  });

  it('refuses other encodings and bytes that are not UTF-8', () => {
    const latin = pain001(EXAMPLE).replace('encoding="UTF-8"', 'encoding="ISO-8859-2"');
    expect(refusal(latin).message).toBe('The file declares encoding "ISO-8859-2"; ISO 20022 messages are UTF-8');
    const bytes = Buffer.from(pain001(one({ creditorName: 'Zoe' })));
    bytes[bytes.indexOf('Zoe')] = 0xff;
    expect(refusal(bytes).message).toBe('The file is not valid UTF-8 (ISO 20022 messages are UTF-8)');
  });

  it('bounds size, elements, depth and transactions before reading (too-large)', () => {
    const xml = pain001(EXAMPLE);
    const bytes = Buffer.byteLength(xml);
    expect(refusal(xml, { ...PAIN001_BOUNDS, maxBytes: bytes - 1 })).toMatchObject({
      reason: 'too-large',
      appCode: 'PAYLOAD_TOO_LARGE',
      message: `The file is ${bytes} bytes; at most ${bytes - 1} are accepted`,
    });
    expect(refusal(xml, { ...PAIN001_BOUNDS, maxElements: 20 })).toMatchObject({
      reason: 'too-large',
      message: expect.stringMatching(/elements; at most 20/),
    });
    expect(refusal(xml, { ...PAIN001_BOUNDS, maxDepth: 5 })).toMatchObject({
      reason: 'too-large',
      message: 'Elements nest deeper than 5 levels',
    });
    expect(refusal(xml, { ...PAIN001_BOUNDS, maxTransactions: 2 })).toMatchObject({
      reason: 'too-large',
      message: 'The file has 3 transactions; at most 2 are accepted',
    });
    // 40 levels of an unknown element: refused by the depth bound, before the schema looks at it.
    let deep = '';
    for (let level = 0; level < 40; level += 1) deep = `<X>${deep}</X>`;
    const nested = xml.replace('<GrpHdr>', `<GrpHdr>${deep}`);
    expect(refusal(nested)).toMatchObject({ reason: 'too-large', message: 'Elements nest deeper than 32 levels' });
  });

  it('reports at most 20 problems', () => {
    const transactions = Array.from({ length: 30 }, (_, index) => ({
      endToEndId: `E${index}`,
      amount: '0.001',
      currency: 'PLN',
    }));
    const error = refusal(pain001({ ...one({}), blocks: [{ id: 'B', date: '2026-12-01', transactions }] }));
    expect(MAX_PROBLEMS).toBe(20);
    expect(error.problems).toHaveLength(MAX_PROBLEMS);
  });
});
