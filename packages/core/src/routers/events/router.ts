import { router } from '../../trpc.ts';
import { getEventProcedure } from './get-event.ts';
import { listEventsProcedure } from './list-events.ts';
import { replayEventsProcedure } from './replay-events.ts';

export const eventsRouter = router({
  getEvent: getEventProcedure,
  listEvents: listEventsProcedure,
  replayEvents: replayEventsProcedure,
});
