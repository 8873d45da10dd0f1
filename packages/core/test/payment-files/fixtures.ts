/**
 * pain.001 files for the tests, built with fast-xml-parser's XMLBuilder as a company's software
 * would build them (not with Sandbank's writer), in version .09 or .03. Every field can be bent to
 * make a file the XSD or Sandbank's rules refuse.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { StatusReportInput } from '../../src/domain/payment-files/pain002.ts';

export interface FixtureTransaction {
  endToEndId: string;
  amount: string;
  currency: string;
  creditorName?: string | null;
  creditorIban?: string;
  creditorBic?: string;
  instructionId?: string;
  remittance?: string[];
  /** Replaces `Amt`, e.g. `{ EqvtAmt: … }`. */
  amountElement?: Record<string, unknown>;
}

export interface FixtureBlock {
  id: string;
  debtorName?: string;
  debtorIban?: string;
  /** Replaces `DbtrAcct/Id`, e.g. `{ Othr: { Id: '123' } }`. */
  debtorAccountId?: Record<string, unknown>;
  date: string;
  method?: string;
  serviceLevel?: string;
  localInstrument?: string;
  numberOfTransactions?: string;
  controlSum?: string;
  transactions: FixtureTransaction[];
}

export interface FixtureFile {
  version: '09' | '03';
  messageId: string;
  createdAt: string;
  initiatingParty: string;
  numberOfTransactions?: string;
  controlSum?: string;
  blocks: FixtureBlock[];
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: true, indentBy: '  ' });

export function pain001(file: FixtureFile): string {
  const v09 = file.version === '09';
  const total = file.blocks.reduce((sum, block) => sum + block.transactions.length, 0);
  const header: Record<string, unknown> = {
    MsgId: file.messageId,
    CreDtTm: file.createdAt,
    NbOfTxs: file.numberOfTransactions ?? String(total),
  };
  if (file.controlSum) header.CtrlSum = file.controlSum;
  header.InitgPty = { Nm: file.initiatingParty };
  return builder.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    Document: {
      '@xmlns': `urn:iso:std:iso:20022:tech:xsd:pain.001.001.${file.version}`,
      CstmrCdtTrfInitn: { GrpHdr: header, PmtInf: file.blocks.map((block) => blockTree(block, v09)) },
    },
  });
}

function blockTree(block: FixtureBlock, v09: boolean): Record<string, unknown> {
  const tree: Record<string, unknown> = { PmtInfId: block.id, PmtMtd: block.method ?? 'TRF' };
  if (block.numberOfTransactions) tree.NbOfTxs = block.numberOfTransactions;
  if (block.controlSum) tree.CtrlSum = block.controlSum;
  if (block.serviceLevel || block.localInstrument) {
    tree.PmtTpInf = {
      ...(block.serviceLevel ? { SvcLvl: { Cd: block.serviceLevel } } : {}),
      ...(block.localInstrument ? { LclInstrm: { Cd: block.localInstrument } } : {}),
    };
  }
  tree.ReqdExctnDt = v09 ? { Dt: block.date } : block.date;
  tree.Dbtr = { Nm: block.debtorName ?? 'Acme Sp. z o.o.' };
  tree.DbtrAcct = { Id: block.debtorAccountId ?? { IBAN: block.debtorIban ?? 'PL27114020040000300201355387' } };
  // No BIC needed inside the EEA: `NOTPROVIDED`, as SEPA files write it.
  tree.DbtrAgt = { FinInstnId: { Othr: { Id: 'NOTPROVIDED' } } };
  tree.CdtTrfTxInf = block.transactions.map((tx) => {
    const item: Record<string, unknown> = {
      PmtId: { ...(tx.instructionId ? { InstrId: tx.instructionId } : {}), EndToEndId: tx.endToEndId },
      Amt: tx.amountElement ?? { InstdAmt: { '@Ccy': tx.currency, '#text': tx.amount } },
    };
    if (tx.creditorBic) item.CdtrAgt = { FinInstnId: v09 ? { BICFI: tx.creditorBic } : { BIC: tx.creditorBic } };
    if (tx.creditorName !== null) item.Cdtr = { Nm: tx.creditorName ?? 'Jan Kowalski' };
    item.CdtrAcct = { Id: { IBAN: tx.creditorIban ?? 'PL61109010140000071219812874' } };
    if (tx.remittance) item.RmtInf = { Ustrd: tx.remittance };
    return item;
  });
  return tree;
}

/** The worked example of docs/guides/payment-files.md: two blocks, PLN over Elixir and EUR over SEPA. */
export const EXAMPLE: FixtureFile = {
  version: '09',
  messageId: 'ACME-2026-11-30-001',
  createdAt: '2026-11-30T09:15:00+01:00',
  initiatingParty: 'Acme Sp. z o.o.',
  controlSum: '1750.50',
  blocks: [
    {
      id: 'ACME-PLN-1',
      debtorName: 'Acme Sp. z o.o.',
      debtorIban: 'PL27114020040000300201355387',
      date: '2026-12-01',
      transactions: [
        {
          endToEndId: 'INV-2026-0415',
          amount: '1200.00',
          currency: 'PLN',
          creditorName: 'Jan Kowalski',
          creditorIban: 'PL61109010140000071219812874',
          remittance: ['Faktura 2026/0415'],
        },
        {
          endToEndId: 'INV-2026-0416',
          amount: '300.50',
          currency: 'PLN',
          creditorName: 'Biuro Rachunkowe "Liczydło" & S-ka',
          creditorIban: 'PL10105000997603123456789123',
          remittance: ['Faktura 2026/0416'],
        },
      ],
    },
    {
      id: 'ACME-EUR-1',
      debtorIban: 'PL78114020040000370201355387',
      date: '2026-12-01',
      serviceLevel: 'SEPA',
      transactions: [
        {
          endToEndId: 'PO-88231',
          instructionId: 'ACME-EUR-1-1',
          amount: '250',
          currency: 'EUR',
          creditorName: 'Muster GmbH',
          creditorIban: 'DE89370400440532013000',
          creditorBic: 'COBADEFFXXX',
          remittance: ['PO 88231'],
        },
      ],
    },
  ],
};

/** The guide's status report for EXAMPLE: one payment settled, one rejected (closed account), the SEPA one in its session. */
export const EXAMPLE_REPORT: StatusReportInput = {
  messageId: 'SBPSR0001',
  createdAt: new Date('2026-12-01T10:00:00Z'),
  original: {
    messageId: 'ACME-2026-11-30-001',
    messageNameId: 'pain.001.001.09',
    createdAt: '2026-11-30T09:15:00+01:00',
    initiatingPartyName: 'Acme Sp. z o.o.',
  },
  blocks: [
    {
      paymentInformationId: 'ACME-PLN-1',
      transactions: [
        {
          endToEndId: 'INV-2026-0415',
          status: 'ACSC',
          acceptedAt: '2026-11-30T08:15:01Z',
          paymentId: '0192f3a4-5b6c-7d8e-9f00-112233445566',
          amount: { minor: 120000n, currency: 'PLN' },
        },
        {
          endToEndId: 'INV-2026-0416',
          status: 'RJCT',
          reason: { code: 'AC04', message: "Closed account: the creditor's account is closed & cannot be credited" },
        },
      ],
    },
    {
      paymentInformationId: 'ACME-EUR-1',
      transactions: [{ endToEndId: 'PO-88231', instructionId: 'ACME-EUR-1-1', status: 'ACSP' }],
    },
  ],
};
