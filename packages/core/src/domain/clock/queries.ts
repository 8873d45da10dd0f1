/**
 * The SQL of worlds' clocks (docs/architecture.md, "The schema"): typed rows and one named function
 * per statement; `clock.ts` keeps the rules. What falls due as a clock moves is domain/due-items/.
 */
import type { EntityManager } from '@sandbank/db';

/** SQL for the world's now of the user whose `users` row is aliased `u`. */
export const WORLD_NOW_SQL = `date_trunc('milliseconds', sandbank_wall_now() + u.clock_offset_ms * interval '1 millisecond')`;

/** The world's now and its clock's offset, or undefined when the user is gone. */
export async function selectClock(em: EntityManager, userId: string): Promise<{ now: Date; offset_ms: string } | undefined> {
  const [row] = await em.execute<{ now: Date; offset_ms: string }[]>(
    `select ${WORLD_NOW_SQL} as now, u.clock_offset_ms as offset_ms from users u where u.id = ?`,
    [userId],
  );
  return row;
}

/** Moves the world's clock forward so its now is at least `to` (never back). */
export async function raiseClockTo(em: EntityManager, userId: string, to: Date): Promise<void> {
  await em.execute(
    `update users set clock_offset_ms = greatest(clock_offset_ms,
       ceil(extract(epoch from (?::timestamptz - sandbank_wall_now())) * 1000)::bigint)
     where id = ?`,
    [to.toISOString(), userId],
  );
}
