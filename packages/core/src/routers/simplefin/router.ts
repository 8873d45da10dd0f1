import { router } from '../../trpc.ts';
import { createSetupTokenProcedure } from './create-setup-token.ts';

export const simplefinRouter = router({
  createSetupToken: createSetupTokenProcedure,
});
