/**
 * The SQL of the per-user limits (docs/architecture.md, "The schema"): what counts against each
 * limit, one statement per resource, written with Kysely over the generated tables (`kysely(em)`).
 */
import { type EntityManager, kysely } from '@sandbank/db';
import { worldNowOf } from '../clock/queries.ts';

export type LimitedResource = 'webhooks' | 'apiKeys' | 'openAccounts';

const COUNT: Record<LimitedResource, (tx: EntityManager, userId: string) => Promise<{ n: string } | undefined>> = {
  webhooks: (tx, userId) =>
    kysely(tx)
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),
  // Expiry on the world's clock, as authentication reads it: a key expired in its world is not active.
  // A face's own credentials count too (Enable Banking's applications: docs/faces/enablebanking.md).
  apiKeys: (tx, userId) =>
    kysely(tx)
      .selectFrom('users as u')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('api_keys as k')
            .select('k.id')
            .whereRef('k.user_id', '=', 'u.id')
            .where('k.revoked_at', 'is', null)
            .where((key) => key.or([key('k.expires_at', 'is', null), key('k.expires_at', '>', worldNowOf('u'))]))
            .unionAll(eb.selectFrom('enablebanking_applications as a').select('a.id').whereRef('a.user_id', '=', 'u.id'))
            .as('credentials'),
        (join) => join.onTrue(),
      )
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('u.id', '=', userId)
      .executeTakeFirst(),
  openAccounts: (tx, userId) =>
    kysely(tx)
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'open')
      .executeTakeFirst(),
};

/** How many of the resource the user has now. */
export async function countLimited(tx: EntityManager, userId: string, resource: LimitedResource): Promise<number> {
  const row = await COUNT[resource](tx, userId);
  return Number(row?.n ?? 0);
}
