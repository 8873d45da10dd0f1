/**
 * The time inside a user's world (SPEC §5). Everything in the world — default dates, the "not in
 * the future" rule, event timestamps, due items — reads time here or takes an explicit instant
 * from a caller that did. Only delivery signatures, logs and metrics use wall time.
 *
 * Until the per-user clock lands (issue 14) a world's time is wall time.
 */
import type { EntityManager } from '@sandbank/db';

export async function userNow(_em: EntityManager, _userId: string): Promise<Date> {
  return new Date();
}
