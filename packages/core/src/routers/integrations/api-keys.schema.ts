import { ApiKeySchema, dataOf, IdSchema, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { InstantTextSchema } from '../../lib/timestamps.ts';

export const CreateApiKeyInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).meta({ example: 'Budget app' }),
  expiresAt: InstantTextSchema.optional().meta({
    description: 'When the key stops working (ISO 8601, in the future); default: never',
  }),
});

const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({
    description: 'The API key: `sbk_` and 43 base64url characters (256 random bits). Shown only in this response.',
    example: 'sbk_Q2hhcmxpZS1pcy1hLWdvb2QtZG9nLWFuZC1sb3Zlcy1ib25lcw',
  }),
}).meta({ id: 'CreatedApiKey' });

export const CreateApiKeyOutputSchema = dataOf(CreatedApiKeySchema);
const ApiKeyListStatusSchema = z.enum(['active', 'revoked', 'all']);
export const ListApiKeysInputSchema = z.strictObject({
  ...PageQuerySchema,
  status: ApiKeyListStatusSchema.default('active').meta({
    description: '`active` (default): keys not revoked, expired ones included; `revoked`: only revoked keys; `all`: both',
  }),
});
export const ListApiKeysOutputSchema = listOf(ApiKeySchema);
export const RevokeApiKeyInputSchema = z.strictObject({ id: IdSchema });
export const RevokeApiKeyOutputSchema = dataOf(ApiKeySchema);
