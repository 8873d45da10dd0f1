import { ApiKeySchema, dataOf, IdSchema, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';

export const CreateApiKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).meta({ example: 'Budget app' }),
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'When the key stops working (ISO 8601, in the future); default: never' }),
});

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({
    description: 'The API key: `sbk_` and 43 base64url characters (256 random bits). Shown only in this response.',
    example: 'sbk_Q2hhcmxpZS1pcy1hLWdvb2QtZG9nLWFuZC1sb3Zlcy1ib25lcw',
  }),
}).meta({ id: 'CreatedApiKey' });

export const CreateApiKeyOutput = dataOf(CreatedApiKeySchema);
export const ListApiKeysInput = z.strictObject({ ...PageQuerySchema });
export const ListApiKeysOutput = listOf(ApiKeySchema);
export const RevokeApiKeyInput = z.strictObject({ id: IdSchema });
export const RevokeApiKeyOutput = dataOf(ApiKeySchema);
