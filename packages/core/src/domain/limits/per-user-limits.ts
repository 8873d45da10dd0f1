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
import { countLimited, type LimitedResource } from './queries.ts';

export type { LimitedResource };

const WHAT: Record<LimitedResource, string> = {
  webhooks: 'webhooks',
  apiKeys: 'active API keys (and Enable Banking applications)',
  openAccounts: 'open accounts',
};

/** Throws LIMIT_EXCEEDED unless `adding` more fit under `limit`; call it inside the inserting transaction. */
export async function checkUserLimit(
  tx: EntityManager,
  { userId, resource, limit, adding = 1 }: { userId: string; resource: LimitedResource; limit: number; adding?: number },
): Promise<void> {
  await lockUser(tx, userId);
  const count = await countLimited(tx, userId, resource);
  if (count + adding > limit) {
    throw new AppError('LIMIT_EXCEEDED', `You have ${count} ${WHAT[resource]}; the limit is ${limit}`, {
      details: [{ path: resource, message: `At most ${limit} ${WHAT[resource]} per user` }],
    });
  }
}
