/**
 * `sandbank listen` end to end (docs/guides/webhooks.md): the real CLI process follows the API's event stream and
 * forwards to a local receiver that verifies every delivery with the `standardwebhooks` library,
 * while simulations, a pending post, a scenario and a clock advance happen (some through the CLI's
 * own commands). The listener is killed (SIGKILL) mid-way and started again with the same resume
 * point: every event of the log arrives, verified, byte for byte; nothing is missed. Across access
 * tokens that expire every two seconds (the API ends the stream at each expiry), the listener
 * reconnects at once with a fresh token and forwards every event exactly once.
 * Also: login keeps the session with mode 600, exit codes, --json, --help.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pause, waitUntil } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent } from '@sandbank/testing/fixtures';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, sandbank, startSandbank } from './cli-process.ts';
import { startTestApp } from './helpers.ts';

type App = Awaited<ReturnType<typeof startTestApp>>;
let app: App;
let configDir: string;
beforeAll(async () => {
  app = await startTestApp();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-cli-'));
});
afterAll(async () => {
  await app.close();
  await rm(configDir, { recursive: true, force: true });
});

interface Delivery {
  id: string;
  body: string;
  verified: boolean;
}

async function startReceiver(secret: () => string, answer: (index: number) => number) {
  const deliveries: Delivery[] = [];
  let index = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(secret()).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      deliveries.push({ id: String(req.headers['webhook-id']), body, verified });
      res.writeHead(answer(index++)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('sandbank', () => {
  it('logs in, keeping the session in a mode-600 file; refuses a wrong password with exit 3', async () => {
    const user = await app.createUser();
    const env = cliEnv(configDir);
    const wrong = await sandbank(
      ['login', '--api-url', app.url, '--email', user.email, '--password-stdin', '--json'],
      env,
      'nope-nope-nope\n',
    );
    expect(wrong.code).toBe(3);
    expect(JSON.parse(wrong.stdout).error.code).toBe('INVALID_CREDENTIALS');
    const run = await sandbank(
      ['login', '--api-url', app.url, '--email', user.email, '--password-stdin', '--json'],
      env,
      `${user.password}\n`,
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.user.email).toBe(user.email);
    const file = path.join(configDir, 'session.json');
    expect(result.sessionFile).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ apiUrl: app.url, email: user.email });
  });

  it('has --help for every command, exit 2 on bad usage, exit 4 when the API is down', async () => {
    const env = cliEnv(configDir);
    for (const command of [
      [],
      ['login'],
      ['logout'],
      ['listen'],
      ['trigger'],
      ['clock'],
      ['clock', 'advance'],
      ['clock', 'show'],
      ['scenario', 'apply'],
      ['statement'],
    ]) {
      const run = await sandbank([...command, '--help'], env);
      expect(run.code, command.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: sandbank');
    }
    expect((await sandbank(['nonsense'], env)).code).toBe(2);
    expect((await sandbank(['clock', 'advance', 'one month'], env)).code).toBe(2);
    expect((await sandbank(['trigger', 'transaction.exploded'], env)).code).toBe(2);
    expect((await sandbank(['listen', '--forward-to', 'ftp://x'], env)).code).toBe(2);
    const down = await sandbank(['clock', 'show', '--json', '--api-url', 'http://127.0.0.1:9'], env);
    expect(down.code).toBe(4);
    expect(JSON.parse(down.stdout).error.code).toBe('UNREACHABLE');
  });

  it('listen forwards every event, verified, byte for byte, across a kill and a restart', { timeout: 90_000 }, async () => {
    const listenerDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-listen-'));
    const user = await app.createUser();
    const env = cliEnv(listenerDir);
    expect(
      (await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password)).code,
    ).toBe(0);
    let secret = '';
    // The very first request fails once: the listener retries it.
    const receiver = await startReceiver(
      () => secret,
      (index) => (index === 0 ? 500 : 200),
    );
    const cli = async (...args: string[]) => {
      const run = await sandbank([...args, '--json'], env);
      expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
      return JSON.parse(run.stdout);
    };
    const api = (method: string, url: string, body?: unknown) => app.call(method, url, { token: user.accessToken, body });

    let listener = startSandbank(['listen', '--forward-to', receiver.url, '--backoff', '100', '--json'], env);
    await listener.waitFor('Ready!');
    secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(listener.stderr())?.[1] ?? '';
    expect(secret).not.toBe('');

    // Activity through the API and through the CLI.
    const account = (await api('POST', '/v1/accounts', { name: 'Listen' })).body.data;
    await api('POST', '/v1/simulations/transaction', { accountId: account.id, amount: 100_00 });
    await cli('trigger', 'transaction.created', '--account', account.id);
    await cli('trigger', 'transaction.updated', '--account', account.id, '--amount', '500');
    const pending = await api('POST', '/v1/simulations/transaction', {
      accountId: account.id,
      amount: -2_00,
      status: 'pending',
      settleAfter: 'P1D',
    });
    expect(pending.status).toBe(201);
    await waitUntil(() => receiver.deliveries.filter((d) => d.verified).length >= 5, {
      timeoutMs: 30_000,
      what: 'the first five events forwarded',
    });

    // Killed without warning; events go on meanwhile.
    listener.child.kill('SIGKILL');
    await new Promise((resolve) => listener.child.once('exit', resolve));
    await cli('clock', 'advance', 'P2D'); // the hold posts by itself: transaction.updated
    await cli('trigger', 'transaction.removed', '--account', account.id, '--amount', '300');
    const here = path.dirname(fileURLToPath(import.meta.url));
    const scenario = await sandbank(
      ['scenario', 'apply', path.join(here, '../../../examples/scenarios/student.json'), '--json'],
      env,
    );
    expect(scenario.code, scenario.stdout + scenario.stderr).toBe(0);
    for (let i = 0; i < 5; i++) await api('POST', '/v1/simulations/transaction', { accountId: account.id, amount: 10 + i });

    // Started again: the same resume file (its config directory), the same secret.
    listener = startSandbank(['listen', '--forward-to', receiver.url, '--secret', secret, '--backoff', '100', '--json'], env);
    await listener.waitFor('Resuming from the saved point');
    // Every committed event of the user (the log serves each once older transactions, cluster-wide, have ended).
    const { rows } = await app.db.query<{ id: string }>(
      "select id from events where user_id = $1 and type not in ('plaid.webhook', 'webhook.test') order by created_at",
      [user.id],
    );
    const ids = rows.map((row) => row.id);
    expect(ids.length).toBeGreaterThanOrEqual(14);
    await waitUntil(() => ids.every((id) => receiver.deliveries.some((d) => d.id === id && d.verified)), {
      timeoutMs: 60_000,
      what: 'every committed event forwarded',
    });
    listener.child.kill('SIGTERM');
    await new Promise((resolve) => listener.child.once('exit', resolve));
    await receiver.close();

    // Every delivery verifies (the 500 was retried with the same id), and each body is the log's event byte for byte.
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(receiver.deliveries[1]!.id).toBe(receiver.deliveries[0]!.id);
    for (const id of ids) {
      const event = await api('GET', `/v1/events/${id}`);
      expect(receiver.deliveries.find((d) => d.id === id)!.body).toBe(JSON.stringify(event.body.data));
    }
    // Repeats only of the event in flight at the kill (and the retried 500): nothing else twice.
    const counts = new Map<string, number>();
    for (const d of receiver.deliveries) counts.set(d.id, (counts.get(d.id) ?? 0) + 1);
    expect([...counts.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(2);
    // One JSON line per delivery, with its status.
    const lines = listener
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.every((line) => line.ok === true && line.status === 200)).toBe(true);
    await rm(listenerDir, { recursive: true, force: true });
  });

  it('listen goes on across access-token expiries with a fresh token each time, missing nothing', {
    timeout: 60_000,
  }, async () => {
    const short = await startTestApp({ ACCESS_TOKEN_TTL_SECONDS: '2' });
    const listenerDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-expiry-'));
    try {
      const user = await short.createUser();
      const env = cliEnv(listenerDir);
      const login = await sandbank(
        ['login', '--api-url', short.url, '--email', user.email, '--password-stdin'],
        env,
        user.password,
      );
      expect(login.code, login.stderr).toBe(0);
      let secret = '';
      const receiver = await startReceiver(
        () => secret,
        () => 200,
      );
      const listener = startSandbank(['listen', '--forward-to', receiver.url, '--from-start', '--json'], env);
      await listener.waitFor('Ready!');
      secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(listener.stderr())?.[1] ?? '';
      // Events written straight into the log (no token needed) over three tokens' lifetimes.
      const accountId = await insertAccount(short.db, user.id);
      for (let i = 0; i < 24; i++) {
        await insertTransactionEvent(short.db, { accountId, amount: 100 + i });
        await pause(250, "events spread over three access tokens' lifetimes");
      }
      const { rows } = await short.db.query<{ id: string }>('select id from events where user_id = $1', [user.id]);
      const ids = rows.map((row) => row.id).sort();
      await waitUntil(() => receiver.deliveries.length >= ids.length, { timeoutMs: 30_000, what: 'every event forwarded' });
      listener.child.kill('SIGTERM');
      await new Promise((resolve) => listener.child.once('exit', resolve));
      await receiver.close();
      expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
      expect(receiver.deliveries.map((d) => d.id).sort()).toEqual(ids); // each once: no gap, no repeat
      const stderr = listener.stderr();
      expect(stderr.match(/The access token has expired; reconnecting with a fresh token/g)?.length ?? 0).toBeGreaterThanOrEqual(
        2,
      );
      expect(stderr).not.toContain('stream interrupted');
    } finally {
      await short.close();
      await rm(listenerDir, { recursive: true, force: true });
    }
  });

  it('statement writes the file; the API refusing is exit 1 with its code', async () => {
    const user = await app.createUser();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-statement-'));
    const env = cliEnv(dir);
    expect(
      (await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password)).code,
    ).toBe(0);
    const account = (await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Statement' } })).body.data;
    await app.call('POST', '/v1/simulations/transaction', {
      token: user.accessToken,
      body: { accountId: account.id, amount: 12_34 },
    });
    const file = path.join(dir, 'statement.xml');
    const run = await sandbank(['statement', account.id, '--format', 'camt.053', '--output', file, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('BkToCstmrStmt');
    const bad = await sandbank(['statement', account.id, '--format', 'pdf', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('VALIDATION_ERROR');
    await rm(dir, { recursive: true, force: true });
  });
});
