import { CurrencyInfoSchema, CurrencySchema, dataOf, FxRateSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { FIRST_RATE_DAY, LAST_RATE_DAY } from '../../domain/currencies/reference-rates.ts';

export const ListCurrenciesInputSchema = z.strictObject({}).optional();
export const ListCurrenciesOutputSchema = dataOf(z.array(CurrencyInfoSchema));

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const RateDaySchema = z
  .string()
  .max(10)
  .refine(
    (value) => DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Expected YYYY-MM-DD, a calendar day',
  )
  .refine((value) => value >= FIRST_RATE_DAY && value <= LAST_RATE_DAY, `Rates exist from ${FIRST_RATE_DAY} to ${LAST_RATE_DAY}`)
  .meta({ description: `A day (YYYY-MM-DD, Europe/Warsaw), ${FIRST_RATE_DAY} to ${LAST_RATE_DAY}`, example: '2026-11-27' });

/** A positive decimal: at most 12 digits before the point and 20 after, as convert.ts reads rates. */
const RateTextSchema = z
  .string()
  .max(33)
  .regex(/^\d{1,12}(\.\d{1,20})?$/, 'Expected a positive decimal such as 4.2965 (at most 12 digits before the point, 20 after)')
  .refine((value) => /[1-9]/.test(value), 'Must be above zero')
  .meta({ description: 'Quote currency per 1 unit of the base', example: '4.2965' });

export const ListFxRatesInputSchema = z.strictObject({
  date: RateDaySchema.optional().meta({ description: "The day (YYYY-MM-DD, Europe/Warsaw); default: the world's today" }),
  base: CurrencySchema.default('PLN').meta({ description: 'The base currency; default PLN' }),
});
export const ListFxRatesOutputSchema = dataOf(z.array(FxRateSchema));

export const PinFxRateInputSchema = z.strictObject({
  date: RateDaySchema,
  base: CurrencySchema,
  quote: CurrencySchema,
  rate: RateTextSchema,
});
export const PinFxRateOutputSchema = dataOf(FxRateSchema);
