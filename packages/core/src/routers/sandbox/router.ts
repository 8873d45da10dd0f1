import { router } from '../../trpc.ts';
import { resetSandboxProcedure } from './reset-sandbox.ts';

export const sandboxRouter = router({
  resetSandbox: resetSandboxProcedure,
});
