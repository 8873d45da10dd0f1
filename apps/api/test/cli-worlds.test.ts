/**
 * `sandbank worlds …` and `sandbank snapshots …` end to end (docs/guides/testing-your-app.md): the real CLI
 * process takes a snapshot (of the world and of a scenario file), forks it, and the printed credentials
 * (access token on /v1/accounts, API key on the pull endpoint) read the child world's accounts through the API: the snapshot's. Then list,
 * remove (the credentials stop working), and the API's refusals (unknown snapshot, bad ttl) as exit 1
 * with the API's code; --help on every new command.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, sandbank } from './cli-process.ts';
import { startTestApp } from './helpers.ts';

type App = Awaited<ReturnType<typeof startTestApp>>;
let app: App;
let configDir: string;
let user: Awaited<ReturnType<App['createUser']>>;
let env: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-cli-worlds-'));
  user = await app.createUser();
  env = cliEnv(configDir);
  const login = await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password);
  expect(login.code, login.stderr).toBe(0);
});
afterAll(async () => {
  await app.close();
  await rm(configDir, { recursive: true, force: true });
});

const cli = async (...args: string[]) => {
  const run = await sandbank([...args, '--json'], env);
  expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout);
};

describe('sandbank worlds and snapshots', () => {
  it('has --help for every new command', async () => {
    for (const command of [
      ['worlds'],
      ['worlds', 'fork'],
      ['worlds', 'list'],
      ['worlds', 'remove'],
      ['snapshots'],
      ['snapshots', 'list'],
      ['snapshots', 'create'],
    ]) {
      const run = await sandbank([...command, '--help'], env);
      expect(run.code, command.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: sandbank');
    }
    expect((await sandbank(['worlds', 'fork'], env)).code).toBe(2); // the snapshot is required
    expect((await sandbank(['snapshots', 'create', 'x', '--scenario', '/nonexistent.json'], env)).code).toBe(2);
  });

  it('creates a snapshot, forks it; the printed credentials read the snapshot’s accounts; list, remove', async () => {
    const token = user.accessToken;
    for (const name of ['Everyday', 'Savings']) {
      const account = (await app.call('POST', '/v1/accounts', { token, body: { name } })).body.data;
      await app.call('POST', '/v1/simulations/transaction', { token, body: { accountId: account.id, amount: 42_00 } });
    }
    const snapshot = await cli('snapshots', 'create', 'two accounts');
    expect(snapshot).toMatchObject({ name: 'two accounts', accounts: 2, transactions: 2 });

    const here = path.dirname(fileURLToPath(import.meta.url));
    const fromScenario = await cli(
      'snapshots',
      'create',
      'student',
      '--scenario',
      path.join(here, '../../../examples/scenarios/student.json'),
    );
    expect(fromScenario.accounts).toBeGreaterThan(0);
    const listedSnapshots = await cli('snapshots', 'list');
    expect(listedSnapshots.data.map((s: { id: string }) => s.id)).toEqual([fromScenario.id, snapshot.id]);

    // Forked: the whole answer with --json.
    const forked = await cli('worlds', 'fork', snapshot.id, '--ttl', 'PT10M');
    expect(forked.world).toMatchObject({ parentId: user.id, source: 'snapshot', snapshotId: snapshot.id });
    expect(forked.apiKey.key).toMatch(/^sbk_/);
    const ttl = Date.parse(forked.world.expiresAt) - Date.parse(forked.world.createdAt);
    expect(ttl).toBe(10 * 60_000);

    // People's output: the id, the access token, the API key and the expiry.
    const human = await sandbank(['worlds', 'fork', snapshot.id], env);
    expect(human.code, human.stderr).toBe(0);
    const id = /World (\S+) forked/.exec(human.stdout)?.[1] ?? '';
    const accessToken = /Access token: (\S+)/.exec(human.stdout)?.[1] ?? '';
    const apiKey = /API key: (sbk_\S+)/.exec(human.stdout)?.[1] ?? '';
    expect(human.stdout).toMatch(/expires \d{4}-\d\d-\d\dT/);
    expect(human.stdout).not.toContain('\u001b['); // no colors when not a terminal

    // The child world's accounts, read with the printed access tokens: the snapshot's (new ids, same names and balances).
    for (const credential of [accessToken, forked.accessToken]) {
      const accounts = await app.call('GET', '/v1/accounts', { token: credential });
      expect(accounts.status, JSON.stringify(accounts.body)).toBe(200);
      expect(accounts.body.data.map((a: { name: string; balance: number }) => [a.name, a.balance]).sort()).toEqual([
        ['Everyday', 42_00],
        ['Savings', 42_00],
      ]);
    }
    // The printed API key reads the child world's accounts' transactions on the pull endpoint (API keys only).
    const childAccounts = (await app.call('GET', '/v1/accounts', { token: accessToken })).body.data.map(
      (a: { id: string }) => a.id,
    );
    const pulled = await app.call('GET', `/api/owner/${id}/transactions`, { token: apiKey });
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
    expect(pulled.body.data).toHaveLength(2);
    expect(new Set(pulled.body.data.map((t: { accountId: string }) => t.accountId))).toEqual(new Set(childAccounts));
    // The parent's own accounts are not the child's.
    const parentIds = (await app.call('GET', '/v1/accounts', { token })).body.data.map((a: { id: string }) => a.id);
    expect(childAccounts.some((childId: string) => parentIds.includes(childId))).toBe(false);

    const listed = await cli('worlds', 'list');
    expect(listed.data.map((w: { id: string }) => w.id)).toEqual([id, forked.world.id]);
    const listedHuman = await sandbank(['worlds', 'list'], env);
    expect(listedHuman.stdout).toContain(id);

    const removed = await cli('worlds', 'remove', id);
    expect(removed.id).toBe(id);
    // Its data is gone; its API key and its access token stop working at once.
    expect((await app.call('GET', '/v1/accounts', { token: accessToken })).status).toBe(401);
    expect((await app.call('GET', `/api/owner/${id}/transactions`, { token: apiKey })).status).toBe(401);
    expect((await cli('worlds', 'list')).data.map((w: { id: string }) => w.id)).toEqual([forked.world.id]);
    const again = await sandbank(['worlds', 'remove', id, '--json'], env);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error.code).toBe('NOT_FOUND');
  });

  it('prints the API’s refusal for an unknown snapshot and a bad ttl, exit 1', async () => {
    const unknown = await sandbank(['worlds', 'fork', '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('NOT_FOUND');
    const unknownHuman = await sandbank(['worlds', 'fork', '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d'], env);
    expect(unknownHuman.code).toBe(1);
    expect(unknownHuman.stderr).toMatch(/^error: 404 NOT_FOUND: /);

    const snapshot = (await cli('snapshots', 'list')).data[0];
    const badTtl = await sandbank(['worlds', 'fork', snapshot.id, '--ttl', 'P1M'], env);
    expect(badTtl.code).toBe(1);
    expect(badTtl.stderr).toMatch(/^error: 400 VALIDATION_ERROR: The request is not valid \(ttl: Use weeks, days/);
    const tooLong = await sandbank(['worlds', 'fork', snapshot.id, '--ttl', 'P8D', '--json'], env);
    expect(tooLong.code).toBe(1);
    expect(JSON.parse(tooLong.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(JSON.parse(tooLong.stdout).error.message).toContain('At most P7D');
    const notAnId = await sandbank(['worlds', 'fork', 'family', '--json'], env);
    expect(notAnId.code).toBe(1);
    expect(JSON.parse(notAnId.stdout).error.code).toBe('VALIDATION_ERROR');
    // Nothing was made by the refusals.
    expect((await cli('worlds', 'list')).data).toHaveLength(1);
  });
  it('--include keeps webhooks and API keys; a fork prints their fresh secrets', async () => {
    const token = user.accessToken;
    const hook = await app.call('POST', '/v1/webhooks', {
      token,
      body: {
        url: 'https://budget.example.com/hooks',
        secret: 'whsec-cli-0123456789abcdef',
        events: ['transaction.created'],
        clientId: 'cli',
      },
    });
    expect(hook.status).toBe(201);
    const human = await sandbank(['snapshots', 'create', 'with hooks', '--include', 'webhooks,apiKeys'], env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/, 1 webhook; taken at/);
    const id = /Snapshot taken: (\S+)/.exec(human.stdout)?.[1] ?? '';
    const fork = await sandbank(['worlds', 'fork', id], env);
    expect(fork.code, fork.stderr).toBe(0);
    expect(fork.stdout).toMatch(/Webhook \S+ → https:\/\/budget\.example\.com\/hooks, secret: whsec_[A-Za-z0-9+/]{43}=\n/);
    const bad = await sandbank(['snapshots', 'create', 'x', '--include', 'sessions', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('VALIDATION_ERROR');
  });
});
