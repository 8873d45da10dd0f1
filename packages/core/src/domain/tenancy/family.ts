/**
 * A user's family: the user and its child worlds (worlds nest one level: domain/worlds/worlds.ts).
 * Per-world limits would multiply with the children (a user may hold LIMIT_WORLDS of them), so what
 * the whole service shares is limited per family (docs/reference/limits.md): open event streams and
 * heavy operations in flight (the world locks: domain/clock/clock.ts, domain/worlds/snapshots.ts).
 *
 * A family is named by its root: the parent of a child world, the user itself otherwise. A world's
 * parent never changes and ids are never reused, so the answer is kept in memory (a bounded map).
 */
import type { EntityManager } from '@sandbank/db';
import { selectWorldParent } from './queries.ts';

const KEPT = 10_000;
const roots = new Map<string, string>();

export async function familyOf(em: EntityManager, userId: string): Promise<string> {
  const known = roots.get(userId);
  if (known) return known;
  const root = (await selectWorldParent(em, userId)) ?? userId;
  if (roots.size >= KEPT) roots.delete(roots.keys().next().value as string);
  roots.set(userId, root);
  return root;
}
