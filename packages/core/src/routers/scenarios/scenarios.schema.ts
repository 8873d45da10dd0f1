import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { ScenarioSchema } from '../../domain/scenarios/scenario-document.ts';

export const ApplyScenarioInputSchema = z.strictObject({
  scenario: ScenarioSchema,
  reset: z.boolean().optional().meta({ description: 'Reset the world first (as POST /v1/sandbox/reset); default false' }),
});

export const ApplyScenarioOutputSchema = dataOf(
  z.object({
    accounts: z.array(z.object({ key: z.string(), id: IdSchema, name: z.string() })),
    transactions: z.int().meta({
      description:
        "Transactions written from the document (generated histories and explicit ones) under the one scenario.applied event; the schedules' past occurrences are counted in scheduleRuns",
    }),
    schedules: z.int(),
    scheduleRuns: z
      .object({
        booked: z.int().meta({ description: 'Runs that booked a transaction (each with its own transaction.created event)' }),
        failed: z.int().meta({ description: 'Runs that failed (a debit without funds), recorded in the schedule’s runs' }),
      })
      .meta({
        description:
          'The past occurrences of schedules starting in the past (at most two years back), fired at once as a backfill. They count toward the 50,000 transactions of one apply.',
      }),
    webhooks: z.int(),
    eventId: IdSchema.meta({ description: 'The one scenario.applied event' }),
  }),
).meta({ id: 'ApplyScenarioResult' });

// The document's schema validates input (its exact-number pipes have no output form); the export is
// documented as an object of that format, published in full at GET /v1/scenarios/schema.
export const ExportScenarioOutputSchema = dataOf(
  z.record(z.string(), z.unknown()).meta({ description: 'A scenario document (its JSON Schema: GET /v1/scenarios/schema)' }),
);

export const ScenarioJsonSchemaOutputSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'A JSON Schema (draft 2020-12)' });
