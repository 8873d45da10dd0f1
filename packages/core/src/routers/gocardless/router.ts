import { router } from '../../trpc.ts';
import { decideRequisitionProcedure } from './decide-requisition.ts';
import { getRequisitionProcedure } from './get-requisition.ts';

export const gocardlessRouter = router({
  decideRequisition: decideRequisitionProcedure,
  getRequisition: getRequisitionProcedure,
});
