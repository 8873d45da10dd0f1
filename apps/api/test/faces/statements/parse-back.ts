/**
 * Reads a statement file back with a parser Sandbank did not write, into one shape: the entries'
 * ids (where the format carries them) and amounts, and the opening and closing booked balances
 * (minor units). OFX has no opening balance and CSV no balance line: there they are derived as the
 * format's documentation says (closing − Σ entries; first balance_after − first amount).
 */
import { parse as parseCsv } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { Parser } from 'mt940js';
import { parseSync } from 'ofx-js';

export interface ReadBack {
  amounts: number[];
  opening: number;
  closing: number;
}

const cents = (value: number | string) => Math.round(Number(value) * 100);
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const sum = (amounts: number[]) => amounts.reduce((total, amount) => total + amount, 0);

export const READERS: Record<string, (bytes: Buffer) => ReadBack> = {
  'camt.053': (bytes) => {
    const [statement] = CashManagementEndOfDayReport.fromXML(bytes.toString('utf8')).statements;
    if (!statement) throw new Error('no statement');
    const balance = (code: string) => {
      const found = statement.balances.find((bal) => bal.type === code);
      if (!found) throw new Error(`no ${code}`);
      return Math.round(found.amount) * (found.creditDebitIndicator === 'debit' ? -1 : 1);
    };
    return {
      amounts: statement.entries.map((entry) => Math.round(entry.amount) * (entry.creditDebitIndicator === 'debit' ? -1 : 1)),
      opening: balance('OPBD'),
      closing: balance('CLBD'),
    };
  },
  mt940: (bytes) => {
    const [statement] = new Parser().parse(bytes.toString('utf8'));
    if (!statement) throw new Error('no statement');
    return {
      amounts: statement.transactions.map((t) => cents(t.amount)),
      opening: cents(statement.openingBalance),
      closing: cents(statement.closingBalance),
    };
  },
  'mt940-cp852': (bytes) => READERS.mt940?.(Buffer.from(iconv.decode(bytes, 'cp852'))) as ReadBack,
  ofx: (bytes) => {
    const statement = parseSync(bytes.toString('utf8')).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    const amounts = list<{ TRNAMT: string }>(statement.BANKTRANLIST.STMTTRN).map((t) => cents(t.TRNAMT));
    const closing = cents(statement.LEDGERBAL.BALAMT);
    return { amounts, opening: closing - sum(amounts), closing };
  },
  csv: (bytes) => {
    const rows = parseCsv(bytes, { columns: true }) as Record<string, string>[];
    const amounts = rows.map((row) => cents(row.amount ?? 'NaN'));
    const first = rows[0];
    const last = rows.at(-1);
    if (!first || !last) return { amounts, opening: Number.NaN, closing: Number.NaN }; // an empty CSV has no balance
    return {
      amounts,
      opening: cents(first.balance_after ?? 'NaN') - cents(first.amount ?? 'NaN'),
      closing: cents(last.balance_after ?? 'NaN'),
    };
  },
};
READERS.ofx1 = READERS.ofx as (bytes: Buffer) => ReadBack;
