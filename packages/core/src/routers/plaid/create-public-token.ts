import { createItem } from '../../domain/plaid/items.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CreatePublicTokenInputSchema, CreatePublicTokenOutputSchema } from './plaid.schema.ts';

export const createPublicTokenProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/plaid/public-token',
      tags: ['integrations'],
      summary: 'Create a Plaid sandbox public token',
      description:
        'As the face’s `/sandbox/public_token/create` (institution ins_sandbank, transactions and balance), with your user token instead of Plaid credentials: a new Item of your world and its `public_token`, for a budgeting app under test to exchange. The app sets the Item’s webhook with /item/webhook/update. Beyond the Items a user may hold, 422 LIMIT_EXCEEDED.',
      successDescription: 'The new Item and its public token',
    },
    successStatus: 201,
    errorCodes: ['LIMIT_EXCEEDED'],
  })
  .input(CreatePublicTokenInputSchema)
  .output(CreatePublicTokenOutputSchema)
  .mutation(async ({ ctx }) => {
    const { item, publicToken } = await createItem(ctx.em, {
      userId: ctx.user.id,
      webhookUrl: null,
      secrets: ctx.deps.secrets,
      webhookLimit: ctx.deps.config.limits.webhooks,
    });
    return { data: { itemId: item.id, publicToken } };
  });
