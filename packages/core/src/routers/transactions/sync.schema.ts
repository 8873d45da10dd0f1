import { IdSchema, TransactionSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { CursorInputSchema } from '../../lib/cursor.ts';

export const SyncQuerySchema = {
  cursor: CursorInputSchema.optional().meta({
    description: 'The `nextCursor` of your last answer; none to start from the whole current state',
  }),
  limit: z.coerce.number().int().min(1).max(200).default(100).meta({ description: 'Transactions per page, 1–200' }),
};

export const SyncTransactionsOutputSchema = z.object({
  data: z
    .object({
      added: z.array(TransactionSchema).meta({ description: 'New to you since the cursor (upsert by id)' }),
      modified: z
        .array(TransactionSchema)
        .meta({ description: 'Changed since the cursor, in their latest state (upsert by id)' }),
      removed: z
        .array(z.object({ id: IdSchema, accountId: IdSchema }))
        .meta({ description: 'Voided: drop them (they may be ones you never held)' }),
      nextCursor: z.string().meta({ description: 'Keep it: continue from here now (while hasMore) or any time later' }),
      hasMore: z.boolean().meta({ description: 'More is readable now: call again with nextCursor' }),
    })
    .meta({ id: 'TransactionSync' }),
});

export const SYNC_DESCRIPTION =
  'Incremental import. Without `cursor` you get the whole current state (pending and posted) as `added`, page by page; then, from the same cursor chain, every change once per page in its latest state: `added` and `modified` (upsert by id), `removed` (voided; delete by id). Follow `nextCursor` while `hasMore`, store the last one, and continue from it later: you hold exactly what the history shows. A scenario applied since arrives as `added` rows too (its one scenario.applied event stands for them). Cursors never expire except by a sandbox reset, or a scenario applied with `reset: true` (410 CURSOR_EXPIRED: start again without a cursor); a malformed one is 400.';
