import { router } from '../../trpc.ts';
import { createApplicationProcedure } from './create-application.ts';
import { decideAuthorizationProcedure } from './decide-authorization.ts';
import { decidePaymentProcedure } from './decide-payment.ts';
import { getAuthorizationProcedure } from './get-authorization.ts';
import { getPaymentProcedure } from './get-payment.ts';
import { listApplicationsProcedure } from './list-applications.ts';
import { removeApplicationProcedure } from './remove-application.ts';

export const enablebankingRouter = router({
  createApplication: createApplicationProcedure,
  listApplications: listApplicationsProcedure,
  removeApplication: removeApplicationProcedure,
  getAuthorization: getAuthorizationProcedure,
  decideAuthorization: decideAuthorizationProcedure,
  getPayment: getPaymentProcedure,
  decidePayment: decidePaymentProcedure,
});
