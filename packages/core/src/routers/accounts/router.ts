import { router } from '../../trpc.ts';
import { closeAccount } from './close-account.ts';
import { createAccount } from './create-account.ts';
import { getAccount } from './get-account.ts';
import { listAccounts } from './list-accounts.ts';

export const accountsRouter = router({ create: createAccount, list: listAccounts, get: getAccount, close: closeAccount });
