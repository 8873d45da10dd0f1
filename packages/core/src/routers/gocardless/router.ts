import { router } from '../../trpc.ts';
import { decideRequisitionProcedure } from './decide-requisition.ts';

export const gocardlessRouter = router({
  decideRequisition: decideRequisitionProcedure,
});
