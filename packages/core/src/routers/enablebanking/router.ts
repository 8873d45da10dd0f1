import { router } from '../../trpc.ts';
import { createApplicationProcedure } from './create-application.ts';
import { decideAuthorizationProcedure } from './decide-authorization.ts';

export const enablebankingRouter = router({
  createApplication: createApplicationProcedure,
  decideAuthorization: decideAuthorizationProcedure,
});
