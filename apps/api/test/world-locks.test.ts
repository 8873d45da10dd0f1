/**
 * World locks (packages/db/src/advisory-lock.ts): waiting holds no connection, one process's waiters
 * go in arrival order, another process's holder is waited for by asking again, and one share (a
 * family) holds at most its part of the process's slots.
 */
import { acquireAdvisoryLock, createOrm, type HeldLock, nativePool, type Orm } from '@sandbank/db';
import { createTestDatabase, pause, type TestDatabase } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: TestDatabase;
let one: Orm;
let other: Orm;

beforeAll(async () => {
  database = await createTestDatabase();
  // Two ORMs stand for two processes: each has its own pool, queue and slots.
  one = await createOrm({ url: database.url, poolSize: 4, lockSlots: { total: 2, perShare: 1 } });
  other = await createOrm({ url: database.url, poolSize: 4 });
});

afterAll(async () => {
  await Promise.all([one?.close(), other?.close()]);
  await database?.drop();
});

const lock = (orm: Orm, name: string, waitMs: number, share?: string) =>
  acquireAdvisoryLock(orm.em.fork(), name, waitMs, share === undefined ? {} : { share });

const settledSoon = async (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 150))]);

describe('world locks', () => {
  it('20 waiters of one name hold no connection while they wait, and get the lock in arrival order', async () => {
    const pool = await nativePool(one);
    const holder = (await lock(one, 'queue', 1000)) as HeldLock;
    const order: number[] = [];
    const waiters = Array.from({ length: 20 }, (_, i) =>
      lock(one, 'queue', 10_000).then(async (held) => {
        order.push(i);
        await held?.release();
      }),
    );
    await pause(100, 'the waiters have queued: time for a wrongly taken connection to show');
    // Only the holder's connection is out; a pool of 4 has room for everyone else's work.
    expect(pool.totalCount - pool.idleCount).toBe(1);
    expect(pool.waitingCount).toBe(0);
    await holder.release();
    await Promise.all(waiters);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('another process’s holder is waited for without a connection, up to the wait', async () => {
    const pool = await nativePool(one);
    const held = (await lock(other, 'across', 1000)) as HeldLock;
    expect(await lock(one, 'across', 0)).toBeNull();
    expect(await lock(one, 'across', 300)).toBeNull();
    const waiting = lock(one, 'across', 10_000);
    await pause(100, 'the waiter is polling: time for a wrongly held connection to show');
    expect(pool.totalCount - pool.idleCount).toBe(0);
    await held.release();
    const got = await waiting;
    expect(got).not.toBeNull();
    await got?.release();
  });

  it('a share at its part of the slots waits while another share gets in', async () => {
    const first = (await lock(one, 'family-a:1', 1000, 'a')) as HeldLock;
    // Same family, another world: the family's one slot is taken.
    const second = lock(one, 'family-a:2', 10_000, 'a');
    expect(await settledSoon(second)).toBe(false);
    // Another family takes the process's second slot at once; a third family waits for the total.
    const third = (await lock(one, 'family-b:1', 1000, 'b')) as HeldLock;
    const fourth = lock(one, 'family-c:1', 10_000, 'c');
    expect(await settledSoon(fourth)).toBe(false);
    await first.release();
    // The slot freed by family a goes to family a's waiter, first in line.
    const secondHeld = (await second) as HeldLock;
    expect(await settledSoon(fourth)).toBe(false);
    await third.release();
    const fourthHeld = (await fourth) as HeldLock;
    await Promise.all([secondHeld.release(), fourthHeld.release()]);
  });

  it('a holder’s lost connection frees its name and slot', async () => {
    const held = (await lock(one, 'lost', 1000, 'lost')) as HeldLock;
    await (await nativePool(other)).query(
      `select pg_terminate_backend(pid) from pg_locks
        where locktype = 'advisory' and granted and pid <> pg_backend_pid()
          and database = (select oid from pg_database where datname = current_database())`,
    );
    await held.release();
    const again = await lock(one, 'lost', 1000, 'lost');
    expect(again).not.toBeNull();
    await again?.release();
  });
});
