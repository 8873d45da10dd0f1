/**
 * The SQL of worlds' clocks (docs/architecture.md, "The schema"): one named function per statement,
 * typed by the generated tables (`kysely(em)`); `clock.ts` keeps the rules. What falls due as a
 * clock moves is domain/due-items/.
 */
import { type EntityManager, kysely } from '@sandbank/db';
import { type RawBuilder, sql } from 'kysely';

/** SQL for the world's now of the user whose `users` row is aliased `u` (for statements still written as text). */
export const WORLD_NOW_SQL = `date_trunc('milliseconds', sandbank_wall_now() + u.clock_offset_ms * interval '1 millisecond')`;

/** The world's now (timestamptz text) of the user whose `users` row is `users` in a Kysely statement; WORLD_NOW_SQL's twin. */
export const worldNowOf = (users: string): RawBuilder<string> =>
  sql<string>`date_trunc('milliseconds', sandbank_wall_now() + ${sql.ref(`${users}.clock_offset_ms`)} * interval '1 millisecond')`;

/** The world's now (timestamptz text) and its clock's offset, or undefined when the user is gone. */
export async function selectClock(em: EntityManager, userId: string): Promise<{ now: string; offset_ms: string } | undefined> {
  return kysely(em)
    .selectFrom('users as u')
    .select([worldNowOf('u').as('now'), 'u.clock_offset_ms as offset_ms'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** Moves the world's clock forward so its now is at least `to` (never back). */
export async function raiseClockTo(em: EntityManager, userId: string, to: Date): Promise<void> {
  await kysely(em)
    .updateTable('users')
    .set({
      clock_offset_ms: sql<string>`greatest(clock_offset_ms,
        ceil(extract(epoch from (${to.toISOString()}::timestamptz - sandbank_wall_now())) * 1000)::bigint)`,
    })
    .where('id', '=', userId)
    .execute();
}
