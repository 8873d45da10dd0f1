/**
 * The worker's database connections die under it (a PostgreSQL restart, an administrator's
 * pg_terminate_backend): the process must live on (main.ts installs surviveLostConnections, as
 * this file does), log each loss in one short line, and keep relaying and delivering over fresh
 * connections; a job whose completion was lost is released by the heartbeat.
 */
import { Writable } from 'node:stream';
import { createLogger, loadConfig } from '@sandbank/config';
import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLoss, surviveLostConnections } from '../src/connection-loss.ts';
import { startWorker, type Worker } from '../src/worker.ts';
import { type Receiver, startReceiver } from './receiver.ts';
import { type Stack, startStack } from './stack.ts';

const APPLICATION_NAME = 'sandbank-connection-loss-test';
let stack: Stack;
let receiver: Receiver;
let worker: Worker;
const lines: string[] = [];
let removeGuard: () => void = () => {};

beforeAll(async () => {
  stack = await startStack();
  receiver = await startReceiver();
  const config = loadConfig({ ...stack.env, LOG_LEVEL: 'warn' });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  // Our own application_name, so only this worker's connections are terminated below.
  const url = new URL(stack.databaseUrl);
  url.searchParams.set('application_name', APPLICATION_NAME);
  const logger = createLogger(config, 'worker', sink);
  removeGuard = surviveLostConnections(logger);
  worker = await startWorker({ config, databaseUrl: url.toString(), logger });
});
afterAll(async () => {
  removeGuard();
  await worker?.stop();
  await stack.close();
  await receiver.close();
});

async function terminateWorkerConnections(): Promise<number> {
  const { rows } = await stack.db.query<{ n: number }>(
    `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1`,
    [APPLICATION_NAME],
  );
  return rows[0]?.n ?? 0;
}

describe('worker losing its database connections', () => {
  it('survives, logs each lost idle connection briefly, and keeps relaying and delivering', async () => {
    const owner = await stack.createUser();
    await stack.createWebhook(owner.token, `${receiver.url}/lost`, 'whsec-connection-loss-0123456789');
    await stack.commitEvent(owner.id);
    await receiver.waitFor(1, 15_000);

    expect(await terminateWorkerConnections()).toBeGreaterThan(0);
    await waitUntil(async () => lines.some((line) => line.includes('database connection lost')), { timeoutMs: 5_000 });

    const { eventId } = await stack.commitEvent(owner.id);
    const [, second] = await receiver.waitFor(2, 20_000);
    expect(second?.headers['x-sandbank-idempotency-key']).toBe(eventId);
    // The heartbeat goes on too.
    const beat = await stack.db.query('select last_seen_at from worker_heartbeats where worker_id = $1', [worker.workerId]);
    expect(beat.rowCount).toBe(1);

    const lost = lines.filter((line) => line.includes('database connection lost')).map((line) => JSON.parse(line));
    // Each one a warning naming the loss: PostgreSQL's 57P01 when the client read the termination
    // notice, or pg's "Connection terminated" when the socket closed first (which one is a race).
    expect(lost.length).toBeGreaterThan(0);
    for (const entry of lost) {
      expect(entry.level).toBe(40);
      expect(entry.err.code === '57P01' || /Connection terminated/.test(entry.err.message), JSON.stringify(entry.err)).toBe(true);
    }
    for (const entry of lost) expect(entry.err.client).toBeUndefined();
    for (const line of lost) expect(JSON.stringify(line).length).toBeLessThan(1000);
  });
});

describe('isConnectionLoss', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  it('recognises a lost or refused connection', () => {
    expect(isConnectionLoss(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isConnectionLoss(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isConnectionLoss(withCode('connection failure', '08006'))).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    // A write on a node being demoted in a failover (the cluster drill's worker died of it).
    expect(isConnectionLoss(withCode('cannot execute UPDATE in a read-only transaction', '25006'))).toBe(true);
  });
  it('does not excuse anything else', () => {
    expect(isConnectionLoss(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isConnectionLoss(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isConnectionLoss('57P01')).toBe(false);
  });
});

describe('heartbeat and our own orphaned jobs', () => {
  async function lockedJob(lockedSecondsAgo: number): Promise<string> {
    const { rows } = await stack.db.query<{ id: string }>(
      `select id from graphile_worker.add_job('orphan-test', '{}'::json, run_at => now() + interval '1 hour')`,
    );
    const id = rows[0]?.id as string;
    await stack.db.query(
      `update graphile_worker._private_jobs set locked_by = $2, locked_at = now() - make_interval(secs => $3) where id = $1`,
      [id, worker.workerId, lockedSecondsAgo],
    );
    return id;
  }
  const lockOf = async (id: string) =>
    (await stack.db.query('select locked_by from graphile_worker._private_jobs where id = $1', [id])).rows[0]?.locked_by;

  it('releases a job this live worker holds but no longer runs, once past the stale limit', async () => {
    const orphan = await lockedJob(stack.config.worker.staleAfterSeconds + 5);
    const recent = await lockedJob(0);
    await worker.heartbeat.beat();
    expect(await lockOf(orphan)).toBeNull();
    expect(await lockOf(recent)).toBe(worker.workerId);
    await stack.db.query('delete from graphile_worker._private_jobs where id = any ($1::bigint[])', [[orphan, recent]]);
  });
});
