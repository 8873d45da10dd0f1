import { router } from '../../trpc.ts';
import { createApplicationProcedure } from './create-application.ts';
import { decideAuthorizationProcedure } from './decide-authorization.ts';
import { getAuthorizationProcedure } from './get-authorization.ts';
import { listApplicationsProcedure } from './list-applications.ts';
import { removeApplicationProcedure } from './remove-application.ts';

export const enablebankingRouter = router({
  createApplication: createApplicationProcedure,
  listApplications: listApplicationsProcedure,
  removeApplication: removeApplicationProcedure,
  getAuthorization: getAuthorizationProcedure,
  decideAuthorization: decideAuthorizationProcedure,
});
