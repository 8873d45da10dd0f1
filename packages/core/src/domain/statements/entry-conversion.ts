/** A statement entry's card conversion, shared by booked (statement.ts) and pending (pending-entries.ts) entries. */
import type { ConversionColumns } from './queries.ts';

/** What a converted entry keeps (docs/concepts/currencies.md, "Card payments abroad"). */
export interface EntryConversion {
  /** Minor units of `originalCurrency`, signed like the entry's amount. */
  originalAmount: number;
  originalCurrency: string;
  /** The account's currency per 1 unit of the original, decimal text. */
  exchangeRate: string;
}

/** The conversion of a row, or null when it has none. */
export const conversionOf = (row: ConversionColumns): EntryConversion | null =>
  row.original_currency && row.original_amount !== null && row.exchange_rate !== null
    ? { originalAmount: Number(row.original_amount), originalCurrency: row.original_currency, exchangeRate: row.exchange_rate }
    : null;
