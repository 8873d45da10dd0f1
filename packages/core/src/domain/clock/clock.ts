/**
 * The time inside a user's world (docs/concepts/clock-and-schedules.md): `now = wall time + offset`, the offset starting at 0
 * and only growing. Everything in the world — default dates, the "not in the future" rule, event
 * timestamps, due items — reads time here (or in SQL through `WORLD_NOW_SQL`) or takes an explicit
 * instant from a caller that did. What lives outside every world (credentials, ids, deliveries, logs,
 * metrics) reads the process's clock instead (docs/architecture.md, "Time").
 *
 * Wall time is the database server's (`sandbank_wall_now()`, the statement's timestamp: see its
 * migration), so every API instance and worker agrees on one clock. Instants are kept to the millisecond, like every stored timestamp.
 */
import { acquireAdvisoryLock, type EntityManager, type HeldLock } from '@sandbank/db';
import { AppError, worldGone } from '../../errors.ts';
import { MAX_DURATION, subtractIsoDuration } from '../../lib/duration.ts';
import { LATEST_INSTANT } from '../../lib/timestamps.ts';
import { familyOf } from '../tenancy/family.ts';
import { raiseClockTo, selectClock, WORLD_NOW_SQL } from './queries.ts';

export { WORLD_NOW_SQL };

/** The most one call may move a world's clock: an advance, or a scenario's `asOf`. */
export const MAX_ADVANCE = 'P2Y';

/** 422 ADVANCE_TOO_LARGE, with `path` the field that asked for too much. */
export const advanceTooLarge = (path: string) =>
  new AppError('ADVANCE_TOO_LARGE', 'One call moves the clock at most two years; advance in steps', {
    details: [{ path, message: `At most ${MAX_ADVANCE} from now` }],
  });

/**
 * The latest now a world's clock may reach: a century (MAX_DURATION) and a day before the last
 * holdable instant (lib/timestamps.ts), so that every instant computed from the world's now — a
 * settlement or an expiry at most MAX_DURATION later — is holdable too. The day: MAX_DURATION is
 * measured from 2000 (`P36525D` passes), and the century before 9999 has one leap day fewer.
 */
export const LATEST_CLOCK = subtractIsoDuration(subtractIsoDuration(new Date(LATEST_INSTANT), MAX_DURATION), 'P1D');

/** 400 VALIDATION_ERROR at `path`: a move past LATEST_CLOCK. */
export const beyondClockEnd = (path: string) => {
  const message = `Must not be after ${LATEST_CLOCK.toISOString()}, where a world's clock ends`;
  return new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });
};

export interface ClockReading {
  now: Date;
  offsetMs: number;
}

export async function readClock(em: EntityManager, userId: string): Promise<ClockReading> {
  const row = await selectClock(em, userId);
  if (!row) throw worldGone();
  return { now: new Date(row.now), offsetMs: Number(row.offset_ms) };
}

export async function userNow(em: EntityManager, userId: string): Promise<Date> {
  return (await readClock(em, userId)).now;
}

/**
 * Moves the world's clock forward so that its now is at least `to` (never back). Runs inside the
 * caller's transaction, so a fired item and the time it happened at commit together.
 */
export async function moveClockTo(em: EntityManager, userId: string, to: Date): Promise<void> {
  if (to > LATEST_CLOCK) throw beyondClockEnd('to'); // the callers check first, with their own field
  await raiseClockTo(em, userId, to);
}

/** How long an advance (or a reset) waits for another one of the same world before 409. */
const CLOCK_LOCK_WAIT_MS = 30_000;

/**
 * Runs `work` while holding the world's clock lock: one advance, reset or due-item pass per world
 * at a time, so items fire in due-time order. A second caller waits up to `waitMs` for the first,
 * then gets 409 CLOCK_ADVANCING. The lock is a session advisory lock: a crashed process frees it.
 * Waiting holds no database connection, and one family holds a bounded share of the process's locks
 * (packages/db/src/advisory-lock.ts).
 */
export async function withClockLock<T>(
  em: EntityManager,
  userId: string,
  work: () => Promise<T>,
  waitMs = CLOCK_LOCK_WAIT_MS,
): Promise<T> {
  const lock = await tryClockLock(em, userId, waitMs);
  if (!lock) throw new AppError('CLOCK_ADVANCING', 'Another advance or reset of this world is still running; retry when it ends');
  try {
    return await work();
  } finally {
    await lock.release();
  }
}

/** The clock lock without waiting: null when someone else holds it (the worker skips that world). */
export async function tryClockLock(em: EntityManager, userId: string, waitMs = 0): Promise<HeldLock | null> {
  return acquireAdvisoryLock(em, `sandbank.clock:${userId}`, waitMs, { share: await familyOf(em, userId) });
}
