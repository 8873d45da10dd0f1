/** A GoCardless requisition as the console shows it (the consent page and the list of requisitions). */
import { IdSchema, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { REQUISITION_STATUSES, type Requisition } from '../../domain/gocardless/requisitions.ts';

export const RequisitionViewSchema = z
  .object({
    id: IdSchema,
    institutionId: z.string(),
    status: z.enum(REQUISITION_STATUSES).meta({
      description:
        "GoCardless's status: `CR` created, `GC` the consent page is open, `SA` picking accounts, `LN` linked, `RJ` refused, `EX` the agreement ran out",
    }),
    reference: z.string(),
    redirect: z.string(),
    appName: z.string().nullable().meta({
      description: 'The requesting app: the name of the API key whose secret_id made the requisition (null for older ones)',
    }),
    maxHistoricalDays: z.number().int(),
    accessValidForDays: z.number().int(),
    accessScope: z.array(z.enum(['balances', 'details', 'transactions'])),
    accounts: z.number().int().meta({ description: 'How many accounts are linked' }),
    createdAt: TimestampSchema,
    stepAt: TimestampSchema.meta({ description: 'When it reached its status (the world’s clock); for `EX`, when it was linked' }),
  })
  .meta({ id: 'GocardlessRequisition' });

export const toRequisitionView = (requisition: Requisition): z.infer<typeof RequisitionViewSchema> => ({
  id: requisition.id,
  institutionId: requisition.institutionId,
  status: requisition.status,
  reference: requisition.reference,
  redirect: requisition.redirect,
  appName: requisition.appName,
  maxHistoricalDays: requisition.agreement.maxHistoricalDays,
  accessValidForDays: requisition.agreement.accessValidForDays,
  accessScope: requisition.agreement.accessScope,
  accounts: requisition.accounts.length,
  createdAt: requisition.createdAt.toISOString(),
  stepAt: requisition.stepAt.toISOString(),
});
