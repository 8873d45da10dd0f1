import { router } from '../../trpc.ts';
import { createApiKeyProcedure } from './create-api-key.ts';
import { listApiKeysProcedure } from './list-api-keys.ts';
import { pullTransactionsProcedure } from './pull-transactions.ts';
import { revokeApiKeyProcedure } from './revoke-api-key.ts';
import { syncOwnerTransactionsProcedure } from './sync-owner-transactions.ts';

export const integrationsRouter = router({
  createApiKey: createApiKeyProcedure,
  listApiKeys: listApiKeysProcedure,
  pullTransactions: pullTransactionsProcedure,
  revokeApiKey: revokeApiKeyProcedure,
  syncOwnerTransactions: syncOwnerTransactionsProcedure,
});
