/** The one Currency mapper: the library's record → the API's Currency shape (packages/schemas). */
import type { CurrencyInfo } from '@sandbank/schemas';
import type { CurrencyInfo as SupportedCurrency } from '../domain/currencies/currencies.ts';

export const toCurrency = (currency: SupportedCurrency): CurrencyInfo => ({
  code: currency.code,
  name: currency.name,
  exponent: currency.exponent,
});
