/**
 * The Plaid products and countries Sandbank's one institution (`ins_sandbank`, in PL) serves, and the
 * product behind each Plaid path it does not serve (docs/faces/plaid.md). Link tokens and sandbox
 * public tokens refuse other products (INVALID_PRODUCT) and other countries (INVALID_FIELD), as
 * Plaid refuses what a client is not enabled for; a path of another product answers
 * PRODUCTS_NOT_SUPPORTED naming it, as Plaid does for an Item whose institution lacks the product.
 */
import { plaidErrors } from './errors.ts';

const SUPPORTED_PRODUCTS: ReadonlySet<string> = new Set(['transactions', 'balance', 'auth', 'identity']);
const SUPPORTED_COUNTRIES: ReadonlySet<string> = new Set(['PL']);

/** Refuses any product Sandbank does not serve, naming them all. */
export function checkProducts(products: readonly string[]): void {
  const unsupported = products.filter((product) => !SUPPORTED_PRODUCTS.has(product));
  if (unsupported.length > 0) throw plaidErrors.invalidProduct(unsupported);
}

/** Refuses any country other than the institution's (Link would show no institution there). */
export function checkCountries(countries: readonly string[]): void {
  const unsupported = countries.filter((country) => !SUPPORTED_COUNTRIES.has(country));
  if (unsupported.length > 0) {
    throw plaidErrors.invalidField(
      `country_codes: Sandbank's institution ins_sandbank is in PL only; not available in ${unsupported.join(', ')}`,
    );
  }
}

/**
 * Plaid paths of products Sandbank does not serve, by the product Plaid names (prefixes: every
 * endpoint under them). Paths of no product stay Plaid's NOT_FOUND.
 */
export const UNSERVED_PRODUCT_PATHS: Readonly<Record<string, string>> = {
  '/investments/': 'investments',
  '/liabilities/': 'liabilities',
  '/asset_report/': 'assets',
  '/income/': 'income',
  '/credit/': 'income',
  '/employment/': 'employment',
  '/signal/': 'signal',
  '/transfer/': 'transfer',
  '/payment_initiation/': 'payment_initiation',
  '/statements/': 'statements',
  '/identity/match': 'identity_match',
  '/identity_verification/': 'identity_verification',
  '/transactions/recurring/': 'recurring_transactions',
  '/transactions/enrich': 'enrich',
  '/beacon/': 'beacon',
  '/processor/': 'processor',
  '/investments_auth/': 'investments_auth',
};
