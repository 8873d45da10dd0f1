import { CurrencyInfoSchema, dataOf } from '@sandbank/schemas';
import { z } from 'zod';

export const ListCurrenciesInputSchema = z.strictObject({}).optional();
export const ListCurrenciesOutputSchema = dataOf(z.array(CurrencyInfoSchema));
