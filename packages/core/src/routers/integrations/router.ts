import { router } from '../../trpc.ts';
import { createApiKey } from './create-api-key.ts';
import { listApiKeys } from './list-api-keys.ts';
import { pullTransactions } from './pull-transactions.ts';
import { revokeApiKey } from './revoke-api-key.ts';

export const integrationsRouter = router({ createApiKey, listApiKeys, revokeApiKey, pullTransactions });
