/**
 * The statement's snapshot (`openSnapshot` in @sandbank/db): a transaction that sat idle past its
 * limit is ended by PostgreSQL, and that is an error of the next query and nothing more — never an
 * unhandled 'error' event of the connection (which would end the process) — and the connection
 * leaves the pool.
 */
import { openSnapshot } from '@sandbank/db';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

it('survives PostgreSQL ending an idle snapshot: the next query fails, close() releases', async () => {
  const snapshot = await openSnapshot(app.orm.em.fork(), { idleMs: 200 });
  expect(await snapshot.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
  // Asked less often than the idle limit, so the asking never keeps the session busy: PostgreSQL ends it.
  const state = () =>
    snapshot.query('select 1').then(
      () => 'open',
      () => 'ended',
    );
  await expect.poll(state, { timeout: 5_000, interval: 500 }).toBe('ended');
  await expect(snapshot.query('select 1')).rejects.toThrow();
  await snapshot.close();
  // The pool still serves.
  const again = await openSnapshot(app.orm.em.fork());
  expect(await again.query<{ two: number }>('select 2 as two')).toEqual([{ two: 2 }]);
  await again.close();
});
