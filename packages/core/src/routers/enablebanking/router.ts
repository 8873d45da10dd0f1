import { router } from '../../trpc.ts';
import { createApplicationProcedure } from './create-application.ts';
import { decideAuthorizationProcedure } from './decide-authorization.ts';
import { decidePaymentProcedure } from './decide-payment.ts';
import { getAuthorizationProcedure } from './get-authorization.ts';
import { getPaymentProcedure } from './get-payment.ts';
import { listApplicationsProcedure } from './list-applications.ts';
import { listPaymentsProcedure } from './list-payments.ts';
import { listSessionsProcedure } from './list-sessions.ts';
import { removeApplicationProcedure } from './remove-application.ts';
import { revokeSessionProcedure } from './revoke-session.ts';

export const enablebankingRouter = router({
  createApplication: createApplicationProcedure,
  listApplications: listApplicationsProcedure,
  removeApplication: removeApplicationProcedure,
  listSessions: listSessionsProcedure,
  revokeSession: revokeSessionProcedure,
  listPayments: listPaymentsProcedure,
  getAuthorization: getAuthorizationProcedure,
  decideAuthorization: decideAuthorizationProcedure,
  getPayment: getPaymentProcedure,
  decidePayment: decidePaymentProcedure,
});
