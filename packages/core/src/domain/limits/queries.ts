/**
 * The SQL of the per-user limits (docs/architecture.md, "The schema"): what counts against each
 * limit, one statement per resource.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export type LimitedResource = 'webhooks' | 'apiKeys' | 'openAccounts';

const COUNT: Record<LimitedResource, string> = {
  webhooks: 'select count(*) as n from webhooks where user_id = ? and deleted_at is null',
  // Expiry on the world's clock, as authentication reads it: a key expired in its world is not active.
  // A face's own credentials count too (Enable Banking's applications: docs/faces/enablebanking.md).
  apiKeys: `select count(*) as n from users u
    cross join lateral (
      select k.id from api_keys k
       where k.user_id = u.id and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${WORLD_NOW_SQL})
      union all
      select a.id from enablebanking_applications a where a.user_id = u.id
    ) credentials
    where u.id = ?`,
  openAccounts: `select count(*) as n from accounts where user_id = ? and status = 'open'`,
};

/** How many of the resource the user has now. */
export async function countLimited(tx: EntityManager, userId: string, resource: LimitedResource): Promise<number> {
  const [row] = await tx.execute<{ n: string }[]>(COUNT[resource], [userId]);
  return Number(row?.n ?? 0);
}
