import { IdSchema, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';

export const WebhookIdInputSchema = z.strictObject({ id: IdSchema });

export const PageInputSchema = PageQuerySchema;
