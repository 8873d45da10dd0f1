/**
 * ISO 20022 pain.001 (CustomerCreditTransferInitiation), versions 001.001.09 and 001.001.03, read
 * into typed instructions: one per `CdtTrfTxInf`, with its `PmtInf` block's debtor and date. The XSD
 * has already checked the structure (xml-read.ts); what it cannot know is checked here, every
 * problem collected with its line: IBAN checksums, supported currencies and their decimals, amounts
 * within bounds, the counts and control sums the header promises, a credit transfer (`TRF`) to an
 * IBAN with a name.
 */
import { isValidIBAN } from 'ibantools';
import { Exact } from '../currencies/convert.ts';
import { decimalToMinor } from './amounts.ts';
import { PaymentFileError, type PaymentFileProblem } from './errors.ts';
import { childAt, childOf, childrenOf, type ReadBounds, readValidatedXml, type XmlNode } from './xml-read.ts';

type Pain001Version = 'pain.001.001.09' | 'pain.001.001.03';

/** One credit transfer of the file, as the payments domain takes it. */
export interface PaymentFileInstruction {
  /** `PmtInf/PmtInfId` of its block. */
  paymentInformationId: string;
  instructionId: string | null;
  endToEndId: string;
  debtor: { name: string | null; iban: string; currency: string | null };
  creditor: { name: string; iban: string; bic: string | null };
  /** Minor units of `currency`, above zero. */
  amount: bigint;
  currency: string;
  /** The unstructured remittance lines joined with a space, else the structured creditor reference. */
  remittance: string | null;
  /** `YYYY-MM-DD`, the date part as written (`Dt`, or the date of `DtTm` in .09). */
  requestedExecutionDate: string;
  /** `PmtTpInf/SvcLvl/Cd` (`SEPA`, `URGP`, …) and `LclInstrm/Cd` (`INST`, …), the transaction's over its block's. */
  serviceLevel: string | null;
  localInstrument: string | null;
  /** The line of its `CdtTrfTxInf` in the file. */
  line: number;
}

export interface PaymentFile {
  version: Pain001Version;
  messageId: string;
  /** `GrpHdr/CreDtTm` as written. */
  createdAt: string;
  initiatingPartyName: string | null;
  numberOfTransactions: number;
  controlSum: string | null;
  instructions: PaymentFileInstruction[];
}

export interface Pain001Bounds extends ReadBounds {
  maxTransactions: number;
  /** The largest amount of one transaction, in minor units. */
  maxAmount: bigint;
}

/** The defaults the API applies: a 10,000-transaction file is about 4.5 MB. */
export const PAIN001_BOUNDS: Pain001Bounds = {
  maxBytes: 10 * 1024 * 1024,
  maxElements: 500_000,
  maxDepth: 32,
  maxTransactions: 10_000,
  // The API's bound on one amount (MAX_AMOUNT of simulations; a test holds them equal), kept here so this module stays free of the database.
  maxAmount: 1_000_000_000_000n,
};

const VERSIONS = ['pain.001.001.09', 'pain.001.001.03'] as const;

export function parsePain001(file: Uint8Array | string, bounds: Pain001Bounds = PAIN001_BOUNDS): PaymentFile {
  const { message, root } = readValidatedXml(file, VERSIONS, bounds);
  const version = message as Pain001Version;
  const initiation = childOf(root, 'CstmrCdtTrfInitn');
  const header = childOf(initiation, 'GrpHdr');
  const problems: PaymentFileProblem[] = [];
  const blocks = childrenOf(initiation, 'PmtInf');
  const total = blocks.reduce((sum, block) => sum + childrenOf(block, 'CdtTrfTxInf').length, 0);
  if (total > bounds.maxTransactions) {
    const text = `The file has ${total} transactions; at most ${bounds.maxTransactions} are accepted`;
    throw new PaymentFileError(text, [{ line: null, message: text }], 'too-large');
  }
  const instructions: PaymentFileInstruction[] = [];
  blocks.forEach((block, index) => {
    instructions.push(...readBlock(block, `PmtInf[${index + 1}]`, version, bounds, problems));
  });
  const numberOfTransactions = Number(textAt(header, 'NbOfTxs'));
  if (numberOfTransactions !== total) {
    problems.push(
      at(childOf(header, 'NbOfTxs'), `GrpHdr/NbOfTxs says ${numberOfTransactions}; the file has ${total} transactions`),
    );
  }
  const controlSum = optionalText(header, 'CtrlSum');
  checkControlSum(
    childOf(header, 'CtrlSum'),
    'GrpHdr/CtrlSum',
    blocks.flatMap((block) => childrenOf(block, 'CdtTrfTxInf')),
    problems,
  );
  if (problems.length > 0) throw new PaymentFileError(`The file is not a payable ${version} document`, problems);
  return {
    version,
    messageId: textAt(header, 'MsgId'),
    createdAt: textAt(header, 'CreDtTm'),
    initiatingPartyName: optionalText(childOf(header, 'InitgPty'), 'Nm'),
    numberOfTransactions,
    controlSum,
    instructions,
  };
}

function readBlock(
  block: XmlNode,
  path: string,
  version: Pain001Version,
  bounds: Pain001Bounds,
  problems: PaymentFileProblem[],
): PaymentFileInstruction[] {
  const method = childOf(block, 'PmtMtd');
  if (method?.text.trim() !== 'TRF') {
    problems.push(at(method ?? block, `PmtMtd ${method?.text.trim()} is not supported: only credit transfers (TRF) are`, path));
  }
  const debtorIban = ibanOf(childOf(block, 'DbtrAcct'), `${path}/DbtrAcct`, 'The debtor account', problems);
  const date = childOf(block, 'ReqdExctnDt');
  const requestedExecutionDate = (version === 'pain.001.001.09' ? (date?.children[0]?.text ?? '') : (date?.text ?? ''))
    .trim()
    .slice(0, 10);
  const debtor = {
    name: optionalText(childOf(block, 'Dbtr'), 'Nm'),
    iban: debtorIban ?? '',
    currency: optionalText(childOf(block, 'DbtrAcct'), 'Ccy'),
  };
  const paymentInformationId = textAt(block, 'PmtInfId');
  const blockType = childOf(block, 'PmtTpInf');
  const transactions = childrenOf(block, 'CdtTrfTxInf');
  const declared = optionalText(block, 'NbOfTxs');
  if (declared !== null && Number(declared) !== transactions.length) {
    problems.push(
      at(childOf(block, 'NbOfTxs'), `NbOfTxs says ${declared}; the block has ${transactions.length} transactions`, path),
    );
  }
  checkControlSum(childOf(block, 'CtrlSum'), `${path}/CtrlSum`, transactions, problems);
  const read: PaymentFileInstruction[] = [];
  transactions.forEach((tx, index) => {
    const txPath = `${path}/CdtTrfTxInf[${index + 1}]`;
    const amount = amountOf(tx, txPath, bounds, problems);
    const creditorIban = ibanOf(childOf(tx, 'CdtrAcct'), `${txPath}/CdtrAcct`, 'The creditor account', problems);
    const creditorName = optionalText(childOf(tx, 'Cdtr'), 'Nm');
    if (creditorName === null) problems.push(at(tx, 'The creditor name (Cdtr/Nm) is required', txPath));
    if (!amount || !creditorIban || !creditorName || !debtorIban) return;
    const txType = childOf(tx, 'PmtTpInf');
    const finInstn = childAt(tx, 'CdtrAgt', 'FinInstnId');
    read.push({
      paymentInformationId,
      instructionId: optionalText(childOf(tx, 'PmtId'), 'InstrId'),
      endToEndId: textAt(childOf(tx, 'PmtId'), 'EndToEndId'),
      debtor,
      creditor: { name: creditorName, iban: creditorIban, bic: optionalText(finInstn, 'BICFI') ?? optionalText(finInstn, 'BIC') },
      amount: amount.minor,
      currency: amount.currency,
      remittance: remittanceOf(childOf(tx, 'RmtInf')),
      requestedExecutionDate,
      serviceLevel: codeOf(txType, 'SvcLvl') ?? codeOf(blockType, 'SvcLvl'),
      localInstrument: codeOf(txType, 'LclInstrm') ?? codeOf(blockType, 'LclInstrm'),
      line: tx.line,
    });
  });
  return read;
}

function amountOf(tx: XmlNode, path: string, bounds: Pain001Bounds, problems: PaymentFileProblem[]) {
  const instructed = childAt(tx, 'Amt', 'InstdAmt');
  if (!instructed) {
    problems.push(
      at(childOf(tx, 'Amt') ?? tx, 'Only an instructed amount (Amt/InstdAmt) is supported, not an equivalent amount', path),
    );
    return null;
  }
  const currency = instructed.attrs.Ccy ?? '';
  const parsed = decimalToMinor(instructed.text, currency);
  if (!parsed.ok) {
    problems.push(at(instructed, parsed.message, `${path}/Amt/InstdAmt`));
    return null;
  }
  if (parsed.minor <= 0n || parsed.minor > bounds.maxAmount) {
    problems.push(
      at(
        instructed,
        `The amount must be above zero and at most ${bounds.maxAmount} minor units of ${currency}`,
        `${path}/Amt/InstdAmt`,
      ),
    );
    return null;
  }
  return { minor: parsed.minor, currency };
}

/** The account's IBAN in electronic format, or null with a problem (missing, `Othr`, or a bad checksum). */
function ibanOf(account: XmlNode | undefined, path: string, what: string, problems: PaymentFileProblem[]): string | null {
  const node = childAt(account, 'Id', 'IBAN');
  if (!node) {
    problems.push(at(account, `${what} must be identified by an IBAN (Id/IBAN)`, path));
    return null;
  }
  const iban = node.text.trim();
  if (!isValidIBAN(iban)) {
    problems.push(at(node, `${iban} is not a valid IBAN (its checksum or length is wrong)`, `${path}/Id/IBAN`));
    return null;
  }
  return iban;
}

/** A declared control sum must equal the sum of the instructed amounts as written (ISO 20022's rule). */
function checkControlSum(node: XmlNode | undefined, path: string, transactions: XmlNode[], problems: PaymentFileProblem[]) {
  if (!node) return;
  let sum = new Exact(0);
  for (const tx of transactions) {
    const amount = childAt(tx, 'Amt', 'InstdAmt') ?? childAt(tx, 'Amt', 'EqvtAmt', 'Amt');
    if (amount) sum = sum.plus(amount.text.trim());
  }
  if (!sum.equals(node.text.trim()))
    problems.push(at(node, `${path} says ${node.text.trim()}; the amounts add up to ${sum.toFixed()}`, path));
}

function remittanceOf(info: XmlNode | undefined): string | null {
  const lines = childrenOf(info, 'Ustrd')
    .map((line) => line.text.trim())
    .filter(Boolean);
  if (lines.length > 0) return lines.join(' ');
  return optionalText(childAt(info, 'Strd', 'CdtrRefInf'), 'Ref');
}

const codeOf = (type: XmlNode | undefined, name: string) => optionalText(childOf(type, name), 'Cd');
const textAt = (node: XmlNode | undefined, name: string) => childOf(node, name)?.text.trim() ?? '';
function optionalText(node: XmlNode | undefined, name: string): string | null {
  const text = childOf(node, name)?.text.trim();
  return text ? text : null;
}
const at = (node: XmlNode | undefined, message: string, path?: string): PaymentFileProblem => ({
  line: node?.line ?? null,
  message,
  ...(path ? { path } : {}),
});
