/**
 * ISO 20022 pain.002.001.10 (CustomerPaymentStatusReport) for an uploaded pain.001: the group's
 * status, each payment-information block's, and each transaction's status with its reason, as the
 * payments are now. A group (or block) whose transactions all share one status has that status;
 * when they differ it is `PART` (partially accepted), as docs/guides/payment-files.md says. `NbOfTxsPerSts` counts the
 * transactions per status.
 */
import { minorToDecimal } from '../currencies/money.ts';
import { buildDocument, dateTime, identifier, pieces, text, type XmlTree } from './xml-build.ts';
import { namespaceOf } from './xml-read.ts';

/** ISO 20022 payment statuses Sandbank's payments carry (docs/concepts/payments.md). */
export type PaymentStatus = 'RCVD' | 'ACTC' | 'ACSP' | 'ACSC' | 'RJCT' | 'CANC';

export interface StatusReportTransaction {
  endToEndId: string;
  instructionId?: string | null;
  status: PaymentStatus;
  /** An ISO external status reason code (`AC04`, `AM04`, …) with its words. */
  reason?: { code: string; message?: string | null } | null;
  /** When the payment was accepted (`ACTC` and after), as `AccptncDtTm`. */
  acceptedAt?: Date | string | null;
  /** Sandbank's payment id, as the account servicer's reference. */
  paymentId?: string | null;
  /** The instructed amount in minor units (a Payment's `amount`, or the file's bigint). */
  amount?: { minor: bigint | number; currency: string } | null;
}

export interface StatusReportInput {
  messageId: string;
  createdAt: Date | string;
  /** The pain.001 reported on. */
  original: {
    messageId: string;
    messageNameId: 'pain.001.001.09' | 'pain.001.001.03';
    createdAt?: string | null;
    /** The original `InitgPty/Nm`, written back as the report's `GrpHdr/InitgPty` (readers such as iso20022.js require one). */
    initiatingPartyName?: string | null;
  };
  blocks: { paymentInformationId: string; transactions: StatusReportTransaction[] }[];
}

/** One status for many: the common one, else `PART`; `RCVD` for none. */
export function groupStatus(statuses: PaymentStatus[]): PaymentStatus | 'PART' {
  const [first] = statuses;
  if (first === undefined) return 'RCVD';
  return statuses.every((status) => status === first) ? first : 'PART';
}

export function buildPain002(input: StatusReportInput): string {
  const all = input.blocks.flatMap((block) => block.transactions);
  const group: XmlTree = {
    OrgnlMsgId: identifier(input.original.messageId),
    OrgnlMsgNmId: input.original.messageNameId,
    ...(input.original.createdAt ? { OrgnlCreDtTm: input.original.createdAt } : {}),
    OrgnlNbOfTxs: String(all.length),
    GrpSts: groupStatus(all.map((tx) => tx.status)),
    NbOfTxsPerSts: countsPerStatus(all),
  };
  return buildDocument(namespaceOf('pain.002.001.10'), {
    CstmrPmtStsRpt: {
      GrpHdr: header(input),
      OrgnlGrpInfAndSts: group,
      OrgnlPmtInfAndSts: input.blocks.map((block) => ({
        OrgnlPmtInfId: identifier(block.paymentInformationId),
        OrgnlNbOfTxs: String(block.transactions.length),
        PmtInfSts: groupStatus(block.transactions.map((tx) => tx.status)),
        NbOfTxsPerSts: countsPerStatus(block.transactions),
        TxInfAndSts: block.transactions.map(transactionTree),
      })),
    },
  });
}

function header(input: StatusReportInput): XmlTree {
  const tree: XmlTree = { MsgId: identifier(input.messageId), CreDtTm: dateTime(input.createdAt) };
  const party = text(input.original.initiatingPartyName, 140);
  if (party) tree.InitgPty = { Nm: party };
  return tree;
}

function countsPerStatus(transactions: StatusReportTransaction[]): XmlTree[] {
  const counts = new Map<PaymentStatus, number>();
  for (const tx of transactions) counts.set(tx.status, (counts.get(tx.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => ({ DtldNbOfTxs: String(count), DtldSts: status }));
}

function transactionTree(tx: StatusReportTransaction): XmlTree {
  const tree: XmlTree = {};
  if (tx.instructionId) tree.OrgnlInstrId = identifier(tx.instructionId);
  tree.OrgnlEndToEndId = identifier(tx.endToEndId);
  tree.TxSts = tx.status;
  if (tx.reason) {
    const reason: XmlTree = { Rsn: { Cd: tx.reason.code } };
    const words = pieces(tx.reason.message, 105, 3);
    if (words.length > 0) reason.AddtlInf = words;
    tree.StsRsnInf = reason;
  }
  if (tx.acceptedAt) tree.AccptncDtTm = dateTime(tx.acceptedAt);
  if (tx.paymentId) tree.AcctSvcrRef = identifier(tx.paymentId.replaceAll('-', ''));
  if (tx.amount) {
    tree.OrgnlTxRef = {
      Amt: { InstdAmt: { '@Ccy': tx.amount.currency, '#text': minorToDecimal(tx.amount.minor, tx.amount.currency) } },
    };
  }
  return tree;
}
