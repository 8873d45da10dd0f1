/** The SQL of tenancy (family.ts). One named function per statement. */
import type { EntityManager } from '@sandbank/db';

/** The parent of a child world; undefined for a user that is no child world (or no user). */
export async function selectWorldParent(em: EntityManager, userId: string): Promise<string | undefined> {
  const [row] = await em.execute<{ parent_id: string }[]>('select parent_id from worlds where id = ?', [userId]);
  return row?.parent_id;
}
