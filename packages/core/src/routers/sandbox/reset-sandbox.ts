import { resetSandbox } from '../../domain/sandbox/reset-sandbox.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ResetSandboxInputSchema, ResetSandboxOutputSchema } from './sandbox.schema.ts';

export const resetSandboxProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/sandbox/reset',
      tags: ['clock'],
      summary: 'Empty your world and set its clock back',
      description:
        'Removes your accounts, transactions, schedules, events and their pending deliveries; keeps you, your credentials, API keys and webhooks; sets the clock offset to 0. Sync cursors issued before it answer 410 CURSOR_EXPIRED.',
    },
    errorCodes: ['CLOCK_ADVANCING'],
  })
  .input(ResetSandboxInputSchema)
  .output(ResetSandboxOutputSchema)
  .mutation(async ({ ctx }) => ({ data: { removed: await resetSandbox(ctx.em, { userId: ctx.user.id }) } }));
