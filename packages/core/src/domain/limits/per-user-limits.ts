/**
 * Limits per user (issue 11): how many webhooks, active API keys and open accounts one user may
 * have (LIMIT_WEBHOOKS, LIMIT_API_KEYS, LIMIT_OPEN_ACCOUNTS). Beyond them: 422 LIMIT_EXCEEDED.
 *
 * Race-free: the check locks the user's row, so two creations of the same user run one after the
 * other and the second counts the first. It must run inside the transaction that then inserts.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { lockUser } from '../auth/queries.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export type LimitedResource = 'webhooks' | 'apiKeys' | 'openAccounts';

const COUNT: Record<LimitedResource, string> = {
  webhooks: 'select count(*) as n from webhooks where user_id = ? and deleted_at is null',
  // Expiry on the world's clock, as authentication reads it: a key expired in its world is not active.
  apiKeys: `select count(*) as n from api_keys k join users u on u.id = k.user_id
    where k.user_id = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${WORLD_NOW_SQL})`,
  openAccounts: `select count(*) as n from accounts where user_id = ? and status = 'open'`,
};

const WHAT: Record<LimitedResource, string> = { webhooks: 'webhooks', apiKeys: 'active API keys', openAccounts: 'open accounts' };

/** Throws LIMIT_EXCEEDED unless `adding` more fit under `limit`; call it inside the inserting transaction. */
export async function checkUserLimit(
  tx: EntityManager,
  { userId, resource, limit, adding = 1 }: { userId: string; resource: LimitedResource; limit: number; adding?: number },
): Promise<void> {
  await lockUser(tx, userId);
  const [row] = await tx.execute<{ n: string }[]>(COUNT[resource], [userId]);
  const count = Number(row?.n ?? 0);
  if (count + adding > limit) {
    throw new AppError('LIMIT_EXCEEDED', `You have ${count} ${WHAT[resource]}; the limit is ${limit}`, {
      details: [{ path: resource, message: `At most ${limit} ${WHAT[resource]} per user` }],
    });
  }
}
