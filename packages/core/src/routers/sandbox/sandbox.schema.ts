import { dataOf } from '@sandbank/schemas';
import { z } from 'zod';

export const ResetSandboxInputSchema = z.strictObject({
  confirm: z.literal('RESET').meta({ description: 'The word RESET, to confirm' }),
});

export const ResetSandboxOutputSchema = dataOf(
  z.object({
    removed: z.object({ accounts: z.int(), transactions: z.int(), schedules: z.int(), events: z.int() }),
  }),
).meta({ id: 'ResetResult' });
