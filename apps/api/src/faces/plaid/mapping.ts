/**
 * The one mapping between the world and Plaid's wire format (docs/faces/plaid.md), each conversion once:
 * - money: integer minor units → Plaid's decimal major units; a transaction's `amount` is
 *   positive when money leaves the account (the sign inverted), balances keep their sign;
 *   computed on the decimal text, so 0.01 and 10^13 minor units are exact and 0 is never -0;
 * - dates: local dates in Europe/Warsaw of the world's instants (`date`, `authorized_date`);
 * - ids: a transaction has a pending id while pending and a posted id once posted, both derived
 *   from the Sandbank id (`pending-<id>`, `posted-<id>`), so the same world gives the same ids;
 * - categories: ours → `personal_finance_category` (the table in docs/faces/plaid.md);
 * - sync: a page of the domain's sync → Plaid's added/modified/removed, with pending → posted as
 *   a new transaction that names the pending one, whose id is removed.
 */
import {
  type ItemAccount,
  ibanOf,
  minorToDecimal,
  PLAID_CONSENTED_PRODUCTS,
  PLAID_INSTITUTION_ID,
  type PlaidItem,
  SANDBANK_BIC,
} from '@sandbank/core';
import type { Category, Transaction } from '@sandbank/schemas';
import { DateTime } from 'luxon';

export const INSTITUTION_ID = PLAID_INSTITUTION_ID;
export const ZONE = 'Europe/Warsaw';

/**
 * Minor units → major units as a JSON number, by the currency's exponent (JPY 0, PLN 2, KWD 3):
 * the decimal text is built in integers and only then read as the JSON number Plaid sends, so it
 * is the nearest double to the exact decimal (what JSON.parse of the text gives), never -0.
 */
export function majorUnits(minor: number, currency: string): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not a safe integer amount: ${minor}`);
  return Number(minorToDecimal(minor, currency)) + 0; // + 0 turns a -0 into 0
}

/** A transaction's amount as Plaid shows it: positive when money leaves the account. */
export const plaidAmount = (minor: number, currency: string): number => majorUnits(-minor, currency);

// One formatter for every call: a luxon DateTime per date cost ~9× as much, and a sync page has two dates a row.
const WARSAW_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The local date (YYYY-MM-DD, en-CA's format) in Europe/Warsaw of an instant. */
export const localDate = (iso: string): string => WARSAW_DATE.format(new Date(iso));

/** The instant a local Europe/Warsaw date starts at. */
export function startOfLocalDate(date: string): Date {
  return DateTime.fromISO(date, { zone: ZONE }).startOf('day').toJSDate();
}

const pendingTransactionId = (id: string) => `pending-${id}`;
const postedTransactionId = (id: string) => `posted-${id}`;

/** A transaction's id in Plaid: the pending id while pending (and once voided), the posted id once posted. */
export const plaidTransactionId = (transaction: Pick<Transaction, 'id' | 'status'>) =>
  transaction.status === 'posted' ? postedTransactionId(transaction.id) : pendingTransactionId(transaction.id);

type Pfc = { primary: string; detailed: string };

const PFC: Record<Exclude<Category, 'transfer' | 'cash'>, Pfc> = {
  groceries: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_GROCERIES' },
  restaurants: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_RESTAURANT' },
  transport: { primary: 'TRANSPORTATION', detailed: 'TRANSPORTATION_PUBLIC_TRANSIT' },
  fuel: { primary: 'TRANSPORTATION', detailed: 'TRANSPORTATION_GAS' },
  utilities: { primary: 'RENT_AND_UTILITIES', detailed: 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY' },
  telecom: { primary: 'RENT_AND_UTILITIES', detailed: 'RENT_AND_UTILITIES_TELEPHONE' },
  housing: { primary: 'RENT_AND_UTILITIES', detailed: 'RENT_AND_UTILITIES_RENT' },
  subscriptions: { primary: 'ENTERTAINMENT', detailed: 'ENTERTAINMENT_TV_AND_MOVIES' },
  entertainment: { primary: 'ENTERTAINMENT', detailed: 'ENTERTAINMENT_OTHER_ENTERTAINMENT' },
  health: { primary: 'MEDICAL', detailed: 'MEDICAL_OTHER_MEDICAL' },
  shopping: { primary: 'GENERAL_MERCHANDISE', detailed: 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE' },
  education: { primary: 'GENERAL_SERVICES', detailed: 'GENERAL_SERVICES_EDUCATION' },
  salary: { primary: 'INCOME', detailed: 'INCOME_WAGES' },
  other: { primary: 'OTHER', detailed: 'OTHER_OTHER' },
};

/** Ours → Plaid's taxonomy; transfers and cash split by direction as Plaid's do; no category → null. */
export function personalFinanceCategory(category: Category | null, amountMinor: number) {
  if (category === null) return null;
  const incoming = amountMinor > 0;
  const pfc: Pfc =
    category === 'transfer'
      ? incoming
        ? { primary: 'TRANSFER_IN', detailed: 'TRANSFER_IN_ACCOUNT_TRANSFER' }
        : { primary: 'TRANSFER_OUT', detailed: 'TRANSFER_OUT_ACCOUNT_TRANSFER' }
      : category === 'cash'
        ? incoming
          ? { primary: 'TRANSFER_IN', detailed: 'TRANSFER_IN_DEPOSIT' }
          : { primary: 'TRANSFER_OUT', detailed: 'TRANSFER_OUT_WITHDRAWAL' }
        : PFC[category];
  return { ...pfc, confidence_level: 'VERY_HIGH' };
}

const NO_LOCATION = {
  address: null,
  city: null,
  region: null,
  postal_code: null,
  country: null,
  lat: null,
  lon: null,
  store_number: null,
};
const NO_PAYMENT_META = {
  reference_number: null,
  ppd_id: null,
  payee: null,
  by_order_of: null,
  payer: null,
  payment_method: null,
  payment_processor: null,
  reason: null,
};

/**
 * A payment's transaction (docs/concepts/payments.md) carries its other side in `raw.counterparty`
 * and its EndToEndId in `raw.endToEndId`: Plaid shows them in `payment_meta`, the payee of money
 * that left, the payer of money that came in, and the reference. (`counterparties` stays empty: its
 * types name merchants, institutions and apps, not a person or a company paid by transfer.)
 */
function paymentMeta(transaction: Transaction) {
  const { counterparty, endToEndId } = transaction.raw as { counterparty?: { name?: unknown }; endToEndId?: unknown };
  const name = typeof counterparty?.name === 'string' ? counterparty.name : null;
  const reference = typeof endToEndId === 'string' ? endToEndId : null;
  if (name === null && reference === null) return NO_PAYMENT_META;
  const outgoing = transaction.amount < 0;
  return { ...NO_PAYMENT_META, reference_number: reference, payee: outgoing ? name : null, payer: outgoing ? null : name };
}

export interface TransactionOptions {
  /** The transaction was pending before it posted (it then names its pending id). */
  postedFromPending: boolean;
  includeOriginalDescription: boolean;
}

export function toPlaidTransaction(transaction: Transaction, options: TransactionOptions) {
  const posted = transaction.status === 'posted';
  const postedAt = transaction.postedAt ?? transaction.date;
  return {
    transaction_id: plaidTransactionId(transaction),
    pending_transaction_id: posted && options.postedFromPending ? pendingTransactionId(transaction.id) : null,
    account_id: transaction.accountId,
    account_owner: null,
    amount: plaidAmount(transaction.amount, transaction.currency),
    iso_currency_code: transaction.currency,
    unofficial_currency_code: null,
    // Plaid: `date` is when it posted (when it happened while pending); `authorized_date` when it happened.
    date: localDate(posted ? postedAt : transaction.date),
    datetime: posted ? postedAt : null,
    authorized_date: localDate(transaction.date),
    authorized_datetime: transaction.date,
    pending: transaction.status === 'pending',
    name: transaction.description,
    merchant_name: transaction.merchant,
    original_description: options.includeOriginalDescription ? transaction.description : null,
    personal_finance_category: personalFinanceCategory(transaction.category, transaction.amount),
    payment_channel: 'other' as const,
    payment_meta: paymentMeta(transaction),
    location: NO_LOCATION,
    category: null,
    category_id: null,
    check_number: null,
    transaction_code: null,
    logo_url: null,
    website: null,
    merchant_entity_id: null,
    counterparties: [],
  };
}

type PlaidTransaction = ReturnType<typeof toPlaidTransaction>;

export function toPlaidAccount(account: ItemAccount) {
  return {
    account_id: account.id,
    balances: {
      available: majorUnits(account.availableBalance, account.currency),
      current: majorUnits(account.balance, account.currency),
      limit: null,
      iso_currency_code: account.currency,
      unofficial_currency_code: null,
    },
    mask: ibanOf(account.id).slice(-4),
    name: account.name,
    official_name: null,
    type: 'depository' as const,
    subtype: 'checking' as const,
  };
}

/** Plaid's Item: its error is ITEM_LOGIN_REQUIRED's body while the login is required. */
export function toPlaidItem(item: PlaidItem, loginRequiredError: Record<string, unknown>) {
  return {
    item_id: item.id,
    institution_id: INSTITUTION_ID,
    webhook: item.webhookUrl,
    error: item.state === 'login_required' ? loginRequiredError : null,
    available_products: ['auth', 'balance', 'identity'],
    billed_products: ['transactions'],
    products: ['transactions'],
    consented_products: [...PLAID_CONSENTED_PRODUCTS],
    consent_expiration_time: null,
    update_type: 'background' as const,
  };
}

export const INSTITUTION = {
  institution_id: INSTITUTION_ID,
  name: 'Sandbank',
  products: ['transactions', 'balance', 'auth', 'identity'],
  country_codes: ['PL'],
  url: null,
  primary_color: null,
  logo: null,
  routing_numbers: [],
  dtc_numbers: [],
  oauth: false,
};

/**
 * `/auth/get`'s numbers as Plaid serves European accounts: each account's IBAN and BIC in
 * `international` (the same IBAN every face shows); no ACH, EFT or BACS numbers.
 */
export function toPlaidNumbers(accounts: readonly ItemAccount[]) {
  return {
    ach: [],
    eft: [],
    international: accounts.map((account) => ({ account_id: account.id, iban: ibanOf(account.id), bic: SANDBANK_BIC })),
    bacs: [],
  };
}

/** The address `/identity/get` shows: a world's user has none, so every owner lives at Sandbank's fictional one. */
const DEFAULT_OWNER_ADDRESS = {
  street: 'ul. Piaskowa 1',
  city: 'Warszawa',
  region: null,
  postal_code: '00-001',
  country: 'PL',
};

/** `/identity/get`'s owner of every account: the world's user, named by their e-mail (as GoCardless's `ownerName`). */
export function toPlaidOwner(owner: { email: string }) {
  return {
    names: [owner.email],
    emails: [{ data: owner.email, primary: true, type: 'primary' as const }],
    phone_numbers: [],
    addresses: [{ data: DEFAULT_OWNER_ADDRESS, primary: true }],
  };
}

export interface DomainSyncPage {
  added: Transaction[];
  modified: Transaction[];
  removed: { id: string; accountId: string }[];
  postedInPage: ReadonlySet<string>;
  postedFromPending: ReadonlySet<string>;
}

/**
 * The domain's sync page in Plaid's terms. A transaction that went pending → posted inside the page
 * is `added` under its posted id (naming the pending one) and its pending id is `removed`, whether
 * the domain calls it added or modified; a voided (or expired) pending one is removed by its pending
 * id; everything else keeps the domain's verdict under its current id.
 */
export function toPlaidSyncChanges(page: DomainSyncPage, includeOriginalDescription: boolean) {
  const added: PlaidTransaction[] = [];
  const modified: PlaidTransaction[] = [];
  const removed: { transaction_id: string; account_id: string }[] = [];
  const plaid = (transaction: Transaction) =>
    toPlaidTransaction(transaction, {
      postedFromPending: page.postedFromPending.has(transaction.id),
      includeOriginalDescription,
    });
  for (const [verdict, list] of [
    ['added', page.added],
    ['modified', page.modified],
  ] as const) {
    for (const transaction of list) {
      if (
        transaction.status === 'posted' &&
        page.postedInPage.has(transaction.id) &&
        page.postedFromPending.has(transaction.id)
      ) {
        added.push(plaid(transaction));
        removed.push({ transaction_id: pendingTransactionId(transaction.id), account_id: transaction.accountId });
      } else (verdict === 'added' ? added : modified).push(plaid(transaction));
    }
  }
  for (const gone of page.removed) removed.push({ transaction_id: pendingTransactionId(gone.id), account_id: gone.accountId });
  return { added, modified, removed };
}
