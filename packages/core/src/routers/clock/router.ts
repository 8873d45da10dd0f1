import { router } from '../../trpc.ts';
import { advanceClockProcedure } from './advance-clock.ts';
import { getClockProcedure } from './get-clock.ts';

export const clockRouter = router({
  advanceClock: advanceClockProcedure,
  getClock: getClockProcedure,
});
