import { router } from '../../trpc.ts';
import { listItemsProcedure } from './list-items.ts';
import { removeItemProcedure } from './remove-item.ts';

export const plaidRouter = router({
  listItems: listItemsProcedure,
  removeItem: removeItemProcedure,
});
