/**
 * ISO 20022 camt.054.001.08 (BankToCustomerDebitCreditNotification): one notification for one
 * account over a period, one entry per debit or credit, each with its counterparty (the creditor of
 * a debit, the debtor of a credit: name and IBAN under `RltdPties`), its `EndToEndId` and its
 * remittance text. Amounts are unsigned decimals with `CdtDbtInd`, from minor units by
 * `minorToDecimal`; the totals in `TxsSummry` are summed in bigint.
 */
import { minorToDecimal } from '../currencies/money.ts';
import { buildDocument, dateTime, identifier, text, type XmlTree } from './xml-build.ts';
import { namespaceOf } from './xml-read.ts';

export interface NotificationEntry {
  /** Sandbank's transaction id: `NtryRef` and `AcctSvcrRef` (32 hex digits, Max35Text). */
  transactionId: string;
  /** Minor units, above zero (a transaction's `amount` made positive, or a bigint); the direction says which way. */
  amount: bigint | number;
  direction: 'debit' | 'credit';
  /** `BOOK` once posted, `PDNG` while held. */
  status: 'BOOK' | 'PDNG';
  bookingDate: string | null;
  valueDate: string;
  endToEndId: string | null;
  counterparty: { name: string | null; iban: string | null };
  remittance: string | null;
  /** A return or reversal of an earlier entry (`RvslInd`). */
  reversal?: boolean;
}

export interface NotificationInput {
  messageId: string;
  createdAt: Date | string;
  account: { iban: string; currency: string; name?: string | null; ownerName?: string | null; bic?: string | null };
  period: { from: Date | string; to: Date | string };
  entries: NotificationEntry[];
}

const MAX = { accountName: 70, partyName: 140, remittance: 140, additional: 500 } as const;
const compactId = (id: string) => identifier(id.replaceAll('-', ''));
const endToEndOf = (id: string | null) => {
  const line = text(id, Number.POSITIVE_INFINITY);
  return line && line === id && [...line].length <= 35 ? line : 'NOTPROVIDED';
};

export function buildCamt054(input: NotificationInput): string {
  const { account } = input;
  const account39: XmlTree = { Id: { IBAN: account.iban }, Ccy: account.currency };
  const name = text(account.name, MAX.accountName);
  if (name) account39.Nm = name;
  const owner = text(account.ownerName, MAX.partyName);
  if (owner) account39.Ownr = { Nm: owner };
  if (account.bic) account39.Svcr = { FinInstnId: { BICFI: account.bic } };
  return buildDocument(namespaceOf('camt.054.001.08'), {
    BkToCstmrDbtCdtNtfctn: {
      GrpHdr: { MsgId: identifier(input.messageId), CreDtTm: dateTime(input.createdAt) },
      Ntfctn: {
        Id: identifier(input.messageId),
        CreDtTm: dateTime(input.createdAt),
        FrToDt: { FrDtTm: dateTime(input.period.from), ToDtTm: dateTime(input.period.to) },
        Acct: account39,
        TxsSummry: summary(input.entries, account.currency),
        Ntry: input.entries.map((entry) => entryTree(entry, account.currency)),
      },
    },
  });
}

function summary(entries: NotificationEntry[], currency: string): XmlTree {
  let credits = { count: 0, sum: 0n };
  let debits = { count: 0, sum: 0n };
  for (const entry of entries) {
    if (entry.direction === 'credit') credits = { count: credits.count + 1, sum: credits.sum + BigInt(entry.amount) };
    else debits = { count: debits.count + 1, sum: debits.sum + BigInt(entry.amount) };
  }
  const net = credits.sum - debits.sum;
  return {
    TtlNtries: {
      NbOfNtries: String(entries.length),
      Sum: minorToDecimal(credits.sum + debits.sum, currency),
      TtlNetNtry: { Amt: minorToDecimal(net < 0n ? -net : net, currency), CdtDbtInd: net < 0n ? 'DBIT' : 'CRDT' },
    },
    TtlCdtNtries: { NbOfNtries: String(credits.count), Sum: minorToDecimal(credits.sum, currency) },
    TtlDbtNtries: { NbOfNtries: String(debits.count), Sum: minorToDecimal(debits.sum, currency) },
  };
}

function entryTree(entry: NotificationEntry, currency: string): XmlTree {
  if (BigInt(entry.amount) <= 0n) throw new Error(`A notification entry's amount is above zero (${entry.transactionId})`);
  const ref = compactId(entry.transactionId);
  const debit = entry.direction === 'debit';
  const amount = { '@Ccy': currency, '#text': minorToDecimal(entry.amount, currency) };
  const details: XmlTree = {
    // An end-to-end id longer than Max35Text (a transaction's external id can be) is not the payment's: none given.
    Refs: { AcctSvcrRef: ref, EndToEndId: endToEndOf(entry.endToEndId) },
    Amt: amount,
    CdtDbtInd: debit ? 'DBIT' : 'CRDT',
  };
  const parties: XmlTree = {};
  const name = text(entry.counterparty.name, MAX.partyName);
  // The other side: who was paid for a debit, who paid for a credit.
  if (name) parties[debit ? 'Cdtr' : 'Dbtr'] = { Pty: { Nm: name } };
  if (entry.counterparty.iban) parties[debit ? 'CdtrAcct' : 'DbtrAcct'] = { Id: { IBAN: entry.counterparty.iban } };
  // TransactionParties6 lists Dbtr, DbtrAcct, …, Cdtr, CdtrAcct in that order; a debit names only the creditor side.
  if (Object.keys(parties).length > 0) details.RltdPties = parties;
  const remittance = text(entry.remittance, MAX.remittance);
  if (remittance) details.RmtInf = { Ustrd: remittance };
  const tree: XmlTree = { NtryRef: ref, Amt: amount, CdtDbtInd: debit ? 'DBIT' : 'CRDT' };
  if (entry.reversal) tree.RvslInd = 'true';
  tree.Sts = { Cd: entry.status };
  if (entry.bookingDate) tree.BookgDt = { Dt: entry.bookingDate };
  tree.ValDt = { Dt: entry.valueDate };
  tree.AcctSvcrRef = ref;
  tree.BkTxCd = {
    Domn: { Cd: 'PMNT', Fmly: { Cd: debit ? 'ICDT' : 'RCDT', SubFmlyCd: entry.reversal ? 'RRTN' : 'ESCT' } },
  };
  tree.NtryDtls = { TxDtls: details };
  if (remittance) tree.AddtlNtryInf = text(entry.remittance, MAX.additional) ?? undefined;
  return tree;
}
