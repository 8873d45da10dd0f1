/**
 * The outbox relay on its own (no worker running, so the jobs it enqueues stay put): each
 * committed event is relayed exactly once, also with two relays racing and events committing
 * while they run, and a relay that dies mid-transaction leaves nothing behind.
 */

import { waitUntil } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent } from '@sandbank/testing/fixtures';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_BATCH_SIZE, relayBatch } from '../src/relay.ts';
import { type Stack, startStack } from './stack.ts';

let stack: Stack;
let relayPools: pg.Pool[];
beforeAll(async () => {
  stack = await startStack();
  relayPools = [1, 2].map(() => {
    const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    // The crash test kills a relay's connection; the worker's pool has the same handlers.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  });
});
afterAll(async () => {
  await Promise.all(relayPools.map((pool) => pool.end()));
  await stack.close();
});

const SECRET = 'whsec-relay-0123456789abcdef';

async function counts() {
  const { rows } = await stack.db.query(`
    select (select count(*)::int from events where relayed_at is null) as unrelayed,
           (select count(*)::int from webhook_deliveries) as deliveries,
           (select count(*)::int from graphile_worker._private_jobs) as jobs,
           (select count(distinct key)::int from graphile_worker._private_jobs) as job_keys`);
  return rows[0] as { unrelayed: number; deliveries: number; jobs: number; job_keys: number };
}

/**
 * Drains the outbox with one relay per pool, concurrently, until `committing` has settled and a batch finds
 * nothing; returns how many events each claimed. (A relay that stopped at its first empty batch could stop
 * before the other relay's batch committed, claiming nothing although the race was on: seen once in CI.)
 */
async function drainConcurrently(committing: Promise<unknown> = Promise.resolve()): Promise<number[]> {
  let settled = false;
  void committing.finally(() => {
    settled = true;
  });
  return Promise.all(
    relayPools.map(async (pool) => {
      let claimed = 0;
      for (;;) {
        const done = settled;
        const { events } = await relayBatch(pool, 50);
        claimed += events;
        if (events === 0 && done) return claimed;
        if (events === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
}

describe('outbox relay', () => {
  it('relays each committed event exactly once with two relays racing while events keep committing', async () => {
    // Three users with two webhooks each, one without any: 600 events, 450 of them subscribed.
    const users = await Promise.all([1, 2, 3, 4].map(() => stack.createUser()));
    for (const user of users.slice(0, 3)) {
      await stack.createWebhook(user.token, 'http://127.0.0.1:9/a', SECRET);
      await stack.createWebhook(user.token, 'http://127.0.0.1:9/b', SECRET);
    }
    const accounts = await Promise.all(users.map((user) => insertAccount(stack.db, user.id)));
    const commit = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const index = i % users.length;
        await insertTransactionEvent(stack.db, { accountId: accounts[index]! });
      }
    };
    await commit(300);
    const committing = commit(300);
    const [claimed] = await Promise.all([drainConcurrently(committing), committing]);
    const rest = await drainConcurrently();
    const total = [...claimed, ...rest].reduce((sum, n) => sum + n, 0);

    expect(total).toBe(600);
    expect(claimed.every((n) => n > 0)).toBe(true);
    expect(await counts()).toEqual({ unrelayed: 0, deliveries: 900, jobs: 900, job_keys: 900 });
    const { rows } = await stack.db.query(
      `select count(*)::int as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        join events e on e.id = d.event_id where w.user_id <> e.user_id`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('leaves no trace when the relay dies mid-transaction, and relays the events on the next pass', async () => {
    await stack.db.query('delete from graphile_worker._private_jobs');
    const user = await stack.createUser();
    const webhook = await stack.createWebhook(user.token, 'http://127.0.0.1:9/crash', SECRET);
    const accountId = await insertAccount(stack.db, user.id);
    const eventIds = [];
    for (let i = 0; i < 5; i++) eventIds.push((await insertTransactionEvent(stack.db, { accountId })).eventId);

    // Hold the relay inside its transaction (after the claim, at the delivery insert), then kill its connection.
    await stack.db.query(`
      create function pg_temp_slow() returns trigger language plpgsql as $$ begin perform pg_sleep(30); return null; end $$;
      create trigger slow_relay before insert on webhook_deliveries for each statement execute function pg_temp_slow();`);
    // Settled into a value at once: its rejection may come before the assertion below is reached.
    const relay = relayBatch(relayPools[0]!, RELAY_BATCH_SIZE).then(
      () => null,
      (error: unknown) => error,
    );
    const pid = await waitUntil(async () => {
      const { rows } = await stack.db.query(
        `select pid from pg_stat_activity where datname = current_database() and query like '%insert into webhook_deliveries%'
            and state = 'active' and pid <> pg_backend_pid()`,
      );
      return rows[0]?.pid as number | undefined;
    });
    await stack.db.query('select pg_terminate_backend($1)', [pid]);
    expect(await relay).toBeInstanceOf(Error);
    await stack.db.query('drop trigger slow_relay on webhook_deliveries; drop function pg_temp_slow()');

    expect(await stack.deliveries(webhook.id)).toEqual([]);
    const { rows } = await stack.db.query('select count(*)::int as n from events where id = any ($1) and relayed_at is null', [
      eventIds,
    ]);
    expect(rows[0].n).toBe(5);
    expect((await counts()).jobs).toBe(0);

    expect(await relayBatch(relayPools[1]!, RELAY_BATCH_SIZE)).toEqual({ events: 5, deliveries: 5 });
    expect(await relayBatch(relayPools[1]!, RELAY_BATCH_SIZE)).toEqual({ events: 0, deliveries: 0 });
    expect((await stack.deliveries(webhook.id)).map((d) => d.event_id).sort()).toEqual([...eventIds].sort());
    expect((await counts()).jobs).toBe(5);
  });
});
