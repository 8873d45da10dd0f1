/** Building blocks of the unified format: ids, money, timestamps, envelopes. */
import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';

/** The currencies an account may hold (ISO 4217 codes; names and exponents: `GET /v1/currencies`). */
export const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF', 'JPY', 'KWD'] as const;
export const CurrencySchema = z
  .enum(CURRENCIES)
  .meta({ description: `ISO 4217 code, one of ${CURRENCIES.join(', ')}; amounts are in its minor units` });
export type Currency = z.infer<typeof CurrencySchema>;

export const IdSchema = z.uuid().meta({ description: 'UUID v7', example: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d' });

/** ISO 8601 UTC with milliseconds and `Z`, e.g. `2026-11-21T10:15:30.123Z`. */
export const TimestampSchema = z.iso
  .datetime({ precision: 3 })
  .meta({ description: 'ISO 8601 UTC with milliseconds', example: '2026-11-21T10:15:30.123Z' });

/** Integer minor units (grosze for PLN), within JavaScript's safe range. */
export const MinorUnitsSchema = z.int().meta({ description: 'Integer amount in minor units' });

export const PageQuerySchema = {
  page: z.coerce.number().int().min(1).default(1).meta({ description: 'Page number, from 1' }),
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: 'Items per page, 1–200' }),
};

export const ListMetaSchema = z.object({
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  hasMore: z.boolean(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: ListMetaSchema });

export function listMeta(page: number, limit: number, total: number): ListMeta {
  return { page, limit, total, hasMore: page * limit < total };
}

export const ErrorBodySchema = z
  .object({
    traceId: z.string().meta({ description: 'Equals the X-Request-Id response header' }),
    code: z.enum(ERROR_CODES as [string, ...string[]]),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Error', description: 'The error contract of every endpoint' });
