import { z } from 'zod';
import { STATUS_FILTERS } from '../../domain/transactions/list-transactions.ts';

/** `status` of history and pull, as the API takes it. */
export const StatusFilterSchema = z
  .enum(STATUS_FILTERS)
  .optional()
  .meta({ description: 'pending, posted, voided or all; default: pending and posted' });
