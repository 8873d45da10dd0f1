/**
 * The clearing schemes a payment to an IBAN travels on (docs/concepts/payments.md#schemes): which
 * currency each carries, which is the default for a currency, and the per-payment limit of the
 * instant Polish scheme.
 */
import type { Currency, ExternalScheme, PaymentScheme } from '@sandbank/schemas';

export const SCHEME_CURRENCY: Record<ExternalScheme, Currency> = {
  elixir: 'PLN',
  express_elixir: 'PLN',
  sepa: 'EUR',
  sepa_instant: 'EUR',
};

/** The scheme a payment in this currency takes when none is asked for; undefined: none carries it. */
export function defaultScheme(currency: Currency): ExternalScheme | undefined {
  if (currency === 'PLN') return 'elixir';
  if (currency === 'EUR') return 'sepa';
  return undefined;
}

/** Instant schemes settle within the request: accepted, cleared and settled at once. */
export const isInstant = (scheme: PaymentScheme) =>
  scheme === 'express_elixir' || scheme === 'sepa_instant' || scheme === 'internal';

/**
 * Express Elixir's per-payment limit in grosze (100,000.00 PLN), Sandbank's fixed value: KIR lets
 * each bank set its own within the scheme's, and many publish 100,000 PLN. Above it: RJCT/AM02.
 */
export const EXPRESS_ELIXIR_LIMIT = 100_000_00;
