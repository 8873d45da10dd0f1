/** An Enable Banking session as the world's owner sees it in the console (docs/faces/enablebanking.md). */
import { IdSchema, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import type { Session } from '../../domain/enablebanking/sessions.ts';

export const EnablebankingSessionSchema = z
  .object({
    id: z.uuid(),
    applicationId: z.uuid(),
    aspsp: z.object({ name: z.string(), country: z.string() }),
    psuType: z.enum(['personal', 'business']),
    status: z.enum(['AUTHORIZED', 'EXPIRED', 'CLOSED']).meta({
      description:
        'Enable Banking’s session status on the world’s clock: `AUTHORIZED` until `validUntil`, then `EXPIRED`; `CLOSED` once the app deleted it or the owner revoked it',
    }),
    accounts: z.array(
      z.object({
        uid: z.uuid().meta({ description: 'The account’s uid in this session (what the app reads it by)' }),
        accountId: IdSchema,
        name: z.string(),
        currency: z.string(),
      }),
    ),
    access: z.object({ balances: z.boolean(), transactions: z.boolean() }),
    validUntil: TimestampSchema,
    createdAt: TimestampSchema,
    closedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'EnablebankingSession' });

export const toSessionView = (session: Session): z.infer<typeof EnablebankingSessionSchema> => ({
  id: session.id,
  applicationId: session.applicationId,
  aspsp: session.aspsp,
  psuType: session.psuType,
  status: session.status,
  accounts: session.accounts.map(({ uid, accountId, name, currency }) => ({ uid, accountId, name, currency })),
  access: session.access,
  validUntil: session.validUntil.toISOString(),
  createdAt: session.createdAt.toISOString(),
  closedAt: session.closedAt?.toISOString() ?? null,
});
