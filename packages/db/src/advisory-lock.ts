/**
 * A session-level PostgreSQL advisory lock on a connection of its own, held across many
 * transactions (e.g. every item of a clock advance commits on its own while the lock is held).
 * If the process dies, its connection closes and PostgreSQL releases the lock: nothing to clean up.
 * The lock takes no transaction id, so it never holds back the event log's snapshot horizon.
 *
 * Waiting for a lock never holds a database connection. A waiter that sat in `pg_advisory_lock`
 * held a pooled connection, and the lock's holder needs a second one for its work: 20 waiters of
 * one user emptied a pool of 20 and every request of every user waited for the lock's timeout.
 * So a lock is taken in three steps, each waited for without a connection:
 * 1. its name: callers of one process queue for a name in memory, in arrival order;
 * 2. a slot: a process holds at most `total` locks at once (a quarter of the pool by default, so
 *    holders and their work never take more than half of it), and one share (a user's family of
 *    worlds) at most `perShare` of them, so one family's heavy operations cannot take every slot;
 * 3. PostgreSQL: `pg_try_advisory_lock` on a pooled connection, kept when it succeeds; when another
 *    process holds the lock, the connection goes back to the pool and the caller asks again after a
 *    pause (10 ms, doubling up to 200 ms) until its wait is over.
 * Locks do not nest: a holder that asked for a second lock could wait for a slot that only holders
 * like it would free.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

export interface HeldLock {
  release(): Promise<void>;
}

export interface LockSlots {
  /** Locks one process holds at once. */
  total: number;
  /** Locks one share (a family of worlds) holds at once. */
  perShare: number;
}

export interface LockOptions {
  /** Who the lock is taken for, counted against `LockSlots.perShare` (default: the name itself). */
  share?: string;
}

/** The slots of a pool whose ORM did not set them: a quarter of the pool, two per share. */
export function defaultLockSlots(poolSize: number): LockSlots {
  return { total: Math.max(1, Math.floor(poolSize / 4)), perShare: 2 };
}

/** Sets how many locks the processes's callers on `pool` may hold (createOrm does, from its options). */
export function setLockSlots(pool: pg.Pool, slots: LockSlots): void {
  gates.set(pool, new Gates(slots));
}

/**
 * Takes the lock named `name`, waiting at most `waitMs` (0: do not wait). Resolves with the held
 * lock, or null when it could not be had in that time.
 */
export async function acquireAdvisoryLock(
  em: EntityManager,
  name: string,
  waitMs: number,
  { share = name }: LockOptions = {},
): Promise<HeldLock | null> {
  const pool: pg.Pool = await em.getConnection().getNativeClient();
  const gate = gatesOf(pool);
  const deadline = Date.now() + Math.max(0, waitMs);
  const leaveName = await gate.names.enter(name, deadline);
  if (!leaveName) return null;
  const freeSlot = await gate.slots.take(share, deadline);
  if (!freeSlot) {
    leaveName();
    return null;
  }
  let client: pg.PoolClient | null;
  try {
    client = await lockInPostgres(pool, name, deadline);
  } catch (error) {
    freeSlot();
    leaveName();
    throw error;
  }
  if (!client) {
    freeSlot();
    leaveName();
    return null;
  }
  const held = client;
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await held.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]);
        held.release();
      } catch (error) {
        // A broken connection has lost the lock already; drop it from the pool.
        held.release(error instanceof Error ? error : true);
      } finally {
        freeSlot();
        leaveName();
      }
    },
  };
}

/** The lock on a pooled connection of its own, asked for without waiting inside PostgreSQL. */
async function lockInPostgres(pool: pg.Pool, name: string, deadline: number): Promise<pg.PoolClient | null> {
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const client = await pool.connect();
    let got: boolean;
    try {
      const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as got', [
        name,
      ]);
      got = rows[0]?.got === true;
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (got) return client;
    client.release();
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
  }
}

const gates = new WeakMap<pg.Pool, Gates>();

function gatesOf(pool: pg.Pool): Gates {
  let gate = gates.get(pool);
  if (!gate) {
    gate = new Gates(defaultLockSlots(pool.options.max ?? 10));
    gates.set(pool, gate);
  }
  return gate;
}

class Gates {
  readonly names = new NameQueue();
  readonly slots: SlotPool;
  constructor(slots: LockSlots) {
    this.slots = new SlotPool(slots);
  }
}

interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Wait for `deadline` for `grant` to be called: resolves true when granted, false at the deadline.
 * `queue` holds the waiter until then; `drop` takes it out when it times out.
 */
function waitInLine(deadline: number, queue: (waiter: Waiter) => void, drop: (waiter: Waiter) => void): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const waiter: Waiter = {
      grant: () => {
        clearTimeout(waiter.timer);
        resolve(true);
      },
      timer: undefined,
    };
    waiter.timer = setTimeout(() => {
      drop(waiter);
      resolve(false);
    }, left);
    queue(waiter);
  });
}

function removeFrom(line: Waiter[], waiter: Waiter): void {
  const at = line.indexOf(waiter);
  if (at >= 0) line.splice(at, 1);
}

/** One holder per name in this process; the others wait in arrival order. */
class NameQueue {
  private readonly lines = new Map<string, Waiter[]>();

  /** Resolves with the function that lets the next one in, or null at the deadline. */
  async enter(name: string, deadline: number): Promise<(() => void) | null> {
    const line = this.lines.get(name);
    if (!line) {
      this.lines.set(name, []);
      return () => this.leave(name);
    }
    const granted = await waitInLine(
      deadline,
      (waiter) => line.push(waiter),
      (waiter) => removeFrom(line, waiter),
    );
    return granted ? () => this.leave(name) : null;
  }

  private leave(name: string): void {
    const line = this.lines.get(name);
    const next = line?.shift();
    if (next) next.grant();
    else this.lines.delete(name);
  }
}

/** At most `total` holders, at most `perShare` of one share; waiters are let in in arrival order where they fit. */
class SlotPool {
  private used = 0;
  private readonly byShare = new Map<string, number>();
  private readonly waiting: Array<Waiter & { share: string }> = [];

  private readonly limits: LockSlots;

  constructor(limits: LockSlots) {
    this.limits = limits;
  }

  async take(share: string, deadline: number): Promise<(() => void) | null> {
    if (this.fits(share) && !this.waiting.some((waiter) => waiter.share === share)) {
      this.occupy(share);
      return this.freer(share);
    }
    const granted = await waitInLine(
      deadline,
      (waiter) => this.waiting.push(Object.assign(waiter, { share })),
      (waiter) => removeFrom(this.waiting, waiter),
    );
    return granted ? this.freer(share) : null;
  }

  private fits(share: string): boolean {
    return this.used < this.limits.total && (this.byShare.get(share) ?? 0) < this.limits.perShare;
  }

  private occupy(share: string): void {
    this.used++;
    this.byShare.set(share, (this.byShare.get(share) ?? 0) + 1);
  }

  private freer(share: string): () => void {
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.used--;
      const left = (this.byShare.get(share) ?? 1) - 1;
      if (left === 0) this.byShare.delete(share);
      else this.byShare.set(share, left);
      this.admit();
    };
  }

  /** Lets in, in arrival order, every waiter that now fits (a share at its cap does not block the others). */
  private admit(): void {
    for (let i = 0; i < this.waiting.length && this.used < this.limits.total; ) {
      const waiter = this.waiting[i] as Waiter & { share: string };
      if (!this.fits(waiter.share)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.occupy(waiter.share);
      waiter.grant();
    }
  }
}
