import { router } from '../../trpc.ts';
import { closeAccountProcedure } from './close-account.ts';
import { createAccountProcedure } from './create-account.ts';
import { getAccountProcedure } from './get-account.ts';
import { getBalanceHistoryProcedure } from './get-balance-history.ts';
import { listAccountsProcedure } from './list-accounts.ts';

export const accountsRouter = router({
  closeAccount: closeAccountProcedure,
  createAccount: createAccountProcedure,
  getAccount: getAccountProcedure,
  getBalanceHistory: getBalanceHistoryProcedure,
  listAccounts: listAccountsProcedure,
});
