import { dataOf, IdSchema, listOf, PageQuerySchema, PlaidItemSummarySchema } from '@sandbank/schemas';
import { z } from 'zod';

export const ListPlaidItemsInputSchema = z.strictObject({ ...PageQuerySchema });
export const ListPlaidItemsOutputSchema = listOf(PlaidItemSummarySchema);
export const PlaidItemIdInputSchema = z.strictObject({ id: IdSchema });
export const PlaidItemOutputSchema = dataOf(PlaidItemSummarySchema);
