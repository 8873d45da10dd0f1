/**
 * CSV: one documented layout (docs/faces/statements.md), UTF-8, a header row, RFC 4180 quoting by
 * csv-stringify, a page of rows at a time. One row per booked entry, oldest first, with the balance after it, so a
 * spreadsheet reconciles: opening = first balance_after − first amount. Text that a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`.
 */
import { stringify } from 'csv-stringify/sync';
import { codesOf } from './codes.ts';
import { oneLine, signedDecimal } from './mapping.ts';
import type { StatementSource } from './source.ts';

const CSV_COLUMNS = [
  'booking_date',
  'value_date',
  'amount',
  'currency',
  'balance_after',
  'description',
  'counterparty',
  'category',
  'type',
  'transaction_id',
  'external_id',
  'reversal_of',
] as const;

const OPTIONS = { record_delimiter: 'windows' } as const;
const FORMULA = /^[=+\-@\t\r]/;
const cell = (text: string) => {
  const line = oneLine(text);
  return FORMULA.test(line) ? `'${line}` : line;
};

/** The header row, then a page of rows at a time. */
export async function* writeCsv(source: StatementSource): AsyncGenerator<string> {
  const { currency } = source.head.account;
  yield stringify([[...CSV_COLUMNS]], OPTIONS);
  for await (const page of source.pages) {
    const rows = page.map((entry) => [
      entry.bookingDate,
      entry.valueDate,
      signedDecimal(entry.amount, currency),
      currency,
      signedDecimal(entry.balanceAfter, currency),
      cell(entry.description),
      cell(entry.merchant ?? ''),
      entry.category ?? '',
      codesOf(entry).ofx,
      entry.id,
      cell(entry.externalTxnId),
      entry.reversalOf ?? '',
    ]);
    if (rows.length > 0) yield stringify(rows, OPTIONS);
  }
}
