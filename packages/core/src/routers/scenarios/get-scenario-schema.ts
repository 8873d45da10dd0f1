import { z } from 'zod';
import { scenarioJsonSchema } from '../../domain/scenarios/scenario-document.ts';
import { publicProcedure } from '../../trpc.ts';
import { ScenarioJsonSchemaOutputSchema } from './scenarios.schema.ts';

export const getScenarioSchemaProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/scenarios/schema',
      protect: false,
      tags: ['scenarios'],
      summary: 'The JSON Schema of a scenario',
      description: 'The published format of scenario documents (also in the repository as docs/scenario.schema.json).',
    },
  })
  .input(z.strictObject({}))
  .output(ScenarioJsonSchemaOutputSchema)
  .query(() => scenarioJsonSchema());
