import { router } from '../../trpc.ts';
import { advanceRequisitionProcedure } from './advance-requisition.ts';
import { decideRequisitionProcedure } from './decide-requisition.ts';
import { getRequisitionProcedure } from './get-requisition.ts';
import { listRequisitionsProcedure } from './list-requisitions.ts';

export const gocardlessRouter = router({
  advanceRequisition: advanceRequisitionProcedure,
  decideRequisition: decideRequisitionProcedure,
  getRequisition: getRequisitionProcedure,
  listRequisitions: listRequisitionsProcedure,
});
