/**
 * Worker processes dying and stopping: a real `node src/main.ts` child is killed with SIGKILL
 * (or stopped with SIGTERM) in the middle of a delivery, and the delivery still arrives, with the
 * same idempotency key, through another worker.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from './receiver.ts';
import { type Stack, startStack } from './stack.ts';

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let stack: Stack;
let receiver: Receiver;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  stack = await startStack();
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await stack.close();
  await receiver.close();
});

/** A worker process of its own, with a long HTTP timeout so it is still mid-delivery when we strike. */
function spawnWorker(): { child: ChildProcess; exited: Promise<{ code: number | null; signal: string | null }> } {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: workerDir,
    env: {
      ...process.env,
      ...stack.env,
      WEBHOOK_TIMEOUT_MS: '60000',
      LOG_LEVEL: process.env.CHILD_LOG ?? 'silent',
      LOG_PRETTY: 'false',
    },
    stdio: process.env.CHILD_LOG ? 'inherit' : 'ignore',
  });
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, exited };
}

async function lockedJob(deliveryKeyPrefix = 'delivery:') {
  const { rows } = await stack.db.query(
    `select key, locked_by, locked_at, attempts from graphile_worker._private_jobs where key like $1 || '%'`,
    [deliveryKeyPrefix],
  );
  return rows;
}

async function hangingFirstRequest(pathName: string) {
  const owner = await stack.createUser();
  const webhook = await stack.createWebhook(owner.token, `${receiver.url}${pathName}`, 'whsec-recovery-0123456789abcdef');
  let seen = 0;
  const previous = receiver.respond;
  receiver.respond = (request, index) => (request.path === pathName ? (++seen === 1 ? 'hang' : 200) : previous(request, index));
  return { owner, webhook, requests: () => receiver.received.filter((request) => request.path === pathName) };
}

describe('worker crashes and shutdowns', () => {
  it('redelivers with the same idempotency key after a worker is killed with SIGKILL mid-delivery', async () => {
    const { owner, webhook, requests } = await hangingFirstRequest('/killed');
    const { child, exited } = spawnWorker();
    const { eventId } = await stack.commitEvent(owner.id);
    await waitUntil(async () => requests().length === 1, { timeoutMs: 30_000 });
    const [delivery] = await stack.deliveries(webhook.id);
    const [job] = await lockedJob(`delivery:${delivery.id}`);
    expect(job.locked_by).toEqual(expect.any(String));

    child.kill('SIGKILL');
    expect(await exited).toMatchObject({ signal: 'SIGKILL' });
    const killedAt = Date.now();
    await stack.worker();

    await waitUntil(async () => requests().length === 2, { timeoutMs: 30_000 });
    const recoveredAfterMs = Date.now() - killedAt;
    expect(requests().map((r) => r.headers['x-sandbank-idempotency-key'])).toEqual([eventId, eventId]);
    const done = await waitUntil(async () => {
      const [row] = await stack.deliveries(webhook.id);
      return row.status === 'succeeded' ? row : null;
    });
    // The killed attempt never got recorded; the one that went through did.
    expect(done.attempt_count).toBe(1);
    console.info(`redelivered ${recoveredAfterMs} ms after SIGKILL (stale after ${stack.config.worker.staleAfterSeconds} s)`);
  });

  it('stops on SIGTERM, releasing a delivery it could not finish, which another worker then sends', async () => {
    await Promise.all(stack.workers().map((w) => w.stop()));
    const { owner, webhook, requests } = await hangingFirstRequest('/terminated');
    const heartbeats = async () => (await stack.db.query('select worker_id from worker_heartbeats order by 1')).rows;
    const before = await heartbeats();
    const { child, exited } = spawnWorker();
    const { eventId } = await stack.commitEvent(owner.id);
    await waitUntil(async () => requests().length === 1, { timeoutMs: 30_000 });
    expect((await heartbeats()).length).toBe(before.length + 1);

    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    const [delivery] = await stack.deliveries(webhook.id);
    const [job] = await lockedJob(`delivery:${delivery.id}`);
    expect(job).toMatchObject({ locked_by: null, locked_at: null });
    expect(await heartbeats()).toEqual(before);

    await stack.worker();
    await waitUntil(async () => requests().length === 2, { timeoutMs: 30_000 });
    expect(requests()[1]!.headers['x-sandbank-idempotency-key']).toBe(eventId);
  });
});
