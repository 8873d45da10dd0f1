/**
 * The worker removes child worlds whose TTL has passed (docs/concepts/disposable-worlds.md):
 * a world that expired while no worker ran is gone, whole, once a worker starts; a live one stays.
 */
import { pause } from '@sandbank/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from './stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ WORKER_WORLD_SWEEP_MS: '50' });
});
afterAll(() => stack.close());

it('a world that expired with no worker running is removed by the next worker; a live one stays', async () => {
  const parent = await stack.createUser();
  const account = await stack.call('POST', '/v1/accounts', { token: parent.token, body: { name: 'Główne' } });
  await stack.call('POST', '/v1/simulations/transaction', {
    token: parent.token,
    body: { accountId: account.body.data.id, amount: 1_000, description: 'Start' },
  });
  const snapshot = await stack.call('POST', '/v1/sandbox/snapshots', { token: parent.token, body: { name: 'base' } });
  const fork = async (ttl: string) =>
    (await stack.call('POST', '/v1/worlds', { token: parent.token, body: { snapshotId: snapshot.body.data.id, ttl } })).body.data
      .world.id as string;
  const short = await fork('PT1S');
  const long = await fork('PT1H');
  await pause(1_200, "the short world's 1 s TTL runs out on the wall clock");
  const rows = async (id: string) =>
    Number(
      (
        await stack.db.query<{ n: string }>(
          `select (select count(*) from users where id = $1) + (select count(*) from accounts where user_id = $1)
                + (select count(*) from transactions where user_id = $1) as n`,
          [id],
        )
      ).rows[0]?.n,
    );
  expect(await rows(short)).toBe(3); // expired, but no worker ran: still there

  await stack.worker();
  await expect.poll(() => rows(short), { timeout: 10_000 }).toBe(0);
  expect(await rows(long)).toBe(3);
});
