/** The statement endpoints' query: the period, the format and its options; anything else is 400. */
import { StatementDaySchema } from '@sandbank/core';
import { z } from 'zod';
import { FORMAT_NAMES, type FormatName } from './formats.ts';
import { MT940_ENCODINGS } from './mt940.ts';

export const StatementQuerySchema = z.strictObject({
  from: StatementDaySchema.optional(),
  to: StatementDaySchema.optional(),
  format: z.enum(FORMAT_NAMES as [FormatName, ...FormatName[]], { error: () => `Expected one of: ${FORMAT_NAMES.join(', ')}` }),
  version: z.enum(['02', '08'], 'camt version: 02 (default) or 08').default('02'),
  encoding: z.enum(MT940_ENCODINGS, `MT940 encoding: ${MT940_ENCODINGS.join(', ')}`).default('utf-8'),
});

export const AccountIdSchema = z.uuid('Expected an account id (UUID)');
