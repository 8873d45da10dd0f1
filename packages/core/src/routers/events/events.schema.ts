import { EVENT_TYPES, EventTypeSchema, IdSchema, WebhookEventSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { CursorInputSchema } from '../../lib/cursor.ts';

/** `types=transaction.created,transaction.removed`: a comma-separated list of event kinds. */
const EventTypesQuerySchema = z
  .string()
  .meta({
    description: `Comma-separated event kinds to return (${EVENT_TYPES.join(', ')}); all by default`,
    example: 'transaction.created',
  })
  .transform((value) => value.split(','))
  .pipe(z.array(EventTypeSchema).min(1));

/** A JSON list of event kinds, for bodies. */
export const EventTypesListSchema = z
  .array(EventTypeSchema)
  .min(1)
  .max(EVENT_TYPES.length)
  .meta({ description: 'Event kinds, all by default', example: ['transaction.created'] });

export const ListEventsInputSchema = z.strictObject({
  after: CursorInputSchema.optional(),
  types: EventTypesQuerySchema.optional(),
  transactionId: IdSchema.optional().meta({
    description:
      'Only the events about this transaction: its own (`data.transaction.id`: created, posted, patched, voided) and the creation of its reversals (`data.transaction.reversalOf`), in log order',
  }),
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: 'Events per page, 1–200' }),
});

export const ListEventsOutputSchema = z.object({
  data: z.array(WebhookEventSchema),
  meta: z.object({
    nextCursor: z.string().meta({ description: 'Pass as `after` to continue; always set, also on an empty page' }),
    hasMore: z.boolean().meta({ description: 'More events are readable now; false means poll again later' }),
  }),
});

export const GetEventInputSchema = z.strictObject({ id: IdSchema });
