/** The SQL of tenancy (family.ts). One named function per statement, typed by the generated tables (`kysely(em)`). */
import { type EntityManager, kysely } from '@sandbank/db';

/** The parent of a child world; undefined for a user that is no child world (or no user). */
export async function selectWorldParent(em: EntityManager, userId: string): Promise<string | undefined> {
  const row = await kysely(em).selectFrom('worlds').select('parent_id').where('id', '=', userId).executeTakeFirst();
  return row?.parent_id;
}
