import { applyScenario } from '../../domain/scenarios/apply-scenario.ts';
import { checkScenarioBounds } from '../../domain/scenarios/scenario-document.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ApplyScenarioInputSchema, ApplyScenarioOutputSchema } from './scenarios.schema.ts';

export const applyScenarioProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/scenarios/apply',
      tags: ['scenarios'],
      summary: 'Build your world from a scenario',
      description:
        'All or none, in one database transaction: accounts, generated histories (profiles student, family, freelancer; deterministic from the seed), explicit transactions, schedules and webhooks, and ONE scenario.applied event. An active schedule may start at most two years back (400 at its startAt); once that transaction commits, its past occurrences catch up as an advance fires them, in due order, each booked in its own transaction with its own event (scheduleRuns in the response). Should the catch-up be cut short (an error answered after the commit, a crash), the applied world stays and the worker fires the rest as it fires anything due. Bounds: 100 accounts and 50,000 transactions per apply, the past occurrences of schedules included (422 SCENARIO_TOO_LARGE); LIMIT_SCHEDULES_PER_ACCOUNT schedules per account and LIMIT_OPEN_ACCOUNTS open accounts (422 LIMIT_EXCEEDED); everything is checked before anything is written. A forward `asOf` moves the clock; what the world already had due on the way (active schedules, pending transactions that settle or expire) fires after the commit, in due order; when something is due on the way, the move is at most two years in one apply (422 ADVANCE_TOO_LARGE), as an advance is. Sync cursors issued before it keep working (sync delivers its rows as added) unless reset: true, which expires them as any reset does (410 CURSOR_EXPIRED). Bodies up to 16 MiB.',
    },
    errorCodes: [
      'SCENARIO_TOO_LARGE',
      'ACCOUNT_NAME_TAKEN',
      'INSUFFICIENT_FUNDS',
      'BALANCE_LIMIT_EXCEEDED',
      'CLOCK_ADVANCING',
      'ADVANCE_TOO_LARGE',
      'LIMIT_EXCEEDED',
    ],
  })
  // The scenario bounds (docs/concepts/scenarios.md) answer 422, not the schema's 400: checked on the raw body before it is parsed.
  .use(async ({ getRawInput, next }) => {
    checkScenarioBounds(((await getRawInput()) as { scenario?: unknown } | null | undefined)?.scenario);
    return next();
  })
  .input(ApplyScenarioInputSchema)
  .output(ApplyScenarioOutputSchema)
  .mutation(async ({ ctx, input }) => ({
    data: await applyScenario(ctx.em, ctx.deps, { userId: ctx.user.id, scenario: input.scenario, reset: input.reset }),
  }));
