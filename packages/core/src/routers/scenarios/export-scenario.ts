import { z } from 'zod';
import { exportScenario } from '../../domain/scenarios/export-scenario.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ExportScenarioOutputSchema } from './scenarios.schema.ts';

export const exportScenarioProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/scenarios/export',
      tags: ['scenarios'],
      summary: 'Your world as a scenario',
      description:
        'Explicit transactions and schedules, no generators and no secrets (webhooks are left out). Applying it to a new user gives the same world; export → apply → export gives the same document.',
    },
  })
  .input(z.strictObject({}))
  .output(ExportScenarioOutputSchema)
  .query(async ({ ctx }) => ({ data: await exportScenario(ctx.em, { userId: ctx.user.id }) }));
