/**
 * Banks with personalities (docs/faces/personalities.md): institutions of the aggregator faces
 * that deliver data the way GoCardless and Enable Banking deliver a named real bank's, so an app's
 * per-bank code can be regression-tested. A personality is data only: the bank's ids and names in each
 * aggregator and its quirks, which each face's mapping applies in one step (gocardless/mapping.ts).
 * Each quirk names the open-source normaliser that exists because of it (Actual Budget's
 * `packages/sync-server/src/app-gocardless/banks/`); apps/api/test/faces/gocardless-personalities.test.ts
 * runs those normalisers on our data and checks they give the native API's truth.
 */

/** How a bank's data differs from GoCardless's plain shape; each is one step of a face's mapping. */
export interface Quirks {
  /** bookingDate and valueDate exchanged on booked transactions. */
  swapDates?: true;
  /** A prefix before every transactionId. */
  idPrefix?: string;
  /**
   * Booked transactionIds are the bank's own: `prefix` + the booking day (YYYYMMDD) + the entry's
   * 1-based place among that day's booked entries, zero-padded to `sequenceDigits`.
   */
  datedIds?: { prefix: string; sequenceDigits: number };
  /** Pending transactions carry no id (GoCardless's `transactionId`; Enable Banking's `entry_reference` and `transaction_id`). */
  pendingWithoutId?: true;
  /** No creditorName/debtorName: the counterparty is only in remittanceInformationUnstructured. */
  counterpartyInRemittance?: true;
  /** The remittance text as `remittanceInformationUnstructuredArray` (one line), not `…Unstructured`. */
  remittanceAsArray?: true;
  /** No `balanceAfterTransaction`: an app derives balances from the account's `interimBooked`. */
  withoutBalanceAfter?: true;
  /** Reads per linked account, scope and Warsaw day, as GoCardless and Enable Banking pass on banks' daily limits. */
  dailyLimit?: number;
}

export interface Personality {
  /** The bank, as people call it. */
  bank: string;
  gocardless: { id: string; name: string; bic: string; transactionTotalDays: number; maxAccessValidForDays: number };
  /** The ASPSP's name in Enable Banking's `GET /aspsps?country=PL`. */
  enablebanking: { name: string };
  quirks: Quirks;
}

/** PSD2's RTS lets a third party read an account unattended four times a day; GoCardless passes it on. */
const PSD2_DAILY_READS = 4;

export const PERSONALITIES: readonly Personality[] = [
  {
    bank: 'mBank',
    gocardless: {
      id: 'MBANK_RETAIL_BREXPLPW',
      name: 'mBank Retail',
      bic: 'BREXPLPW',
      transactionTotalDays: 90,
      maxAccessValidForDays: 90,
    },
    enablebanking: { name: 'mBank' },
    quirks: {
      datedIds: { prefix: '', sequenceDigits: 4 },
      pendingWithoutId: true,
      withoutBalanceAfter: true,
      dailyLimit: PSD2_DAILY_READS,
    },
  },
  {
    bank: 'ING Bank Śląski',
    gocardless: { id: 'ING_PL_INGBPLPW', name: 'ING', bic: 'INGBPLPW', transactionTotalDays: 365, maxAccessValidForDays: 90 },
    enablebanking: { name: 'ING Bank Śląski' },
    quirks: { datedIds: { prefix: 'D', sequenceDigits: 7 }, pendingWithoutId: true, dailyLimit: PSD2_DAILY_READS },
  },
  {
    bank: 'PKO Bank Polski',
    gocardless: {
      id: 'PKO_BPKOPLPW',
      name: 'PKO Bank Polski',
      bic: 'BPKOPLPW',
      transactionTotalDays: 365,
      maxAccessValidForDays: 180,
    },
    enablebanking: { name: 'PKO Bank Polski' },
    quirks: { dailyLimit: PSD2_DAILY_READS },
  },
  {
    bank: 'Santander Bank Polska',
    gocardless: {
      id: 'SANTANDER_PL_WBKPPLPP',
      name: 'Santander Bank Polska',
      bic: 'WBKPPLPP',
      transactionTotalDays: 365,
      maxAccessValidForDays: 180,
    },
    enablebanking: { name: 'Santander Bank Polska' },
    quirks: { dailyLimit: PSD2_DAILY_READS },
  },
  {
    bank: 'Bank Pekao',
    gocardless: {
      id: 'PEKAO_PKOPPLPW',
      name: 'Bank Pekao',
      bic: 'PKOPPLPW',
      transactionTotalDays: 365,
      maxAccessValidForDays: 180,
    },
    enablebanking: { name: 'Bank Pekao' },
    quirks: { dailyLimit: PSD2_DAILY_READS },
  },
  {
    bank: 'Revolut',
    gocardless: {
      id: 'REVOLUT_REVOLT21',
      name: 'Revolut',
      bic: 'REVOLT21',
      transactionTotalDays: 730,
      maxAccessValidForDays: 180,
    },
    enablebanking: { name: 'Revolut' },
    quirks: { remittanceAsArray: true },
  },
];
