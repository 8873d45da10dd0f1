/**
 * Actual Budget's own sync server (@actual-app/sync-server, installed by
 * scripts/ensure-actual-sync-server.sh), started as its npm package runs it, talking to Sandbank instead
 * of Enable Banking and GoCardless without a line of its code changed. Its clients call fixed URLs,
 * https://api.enablebanking.com and https://bankaccountdata.gocardless.com/api/v2, so the redirect is
 * done around the process (docs/faces/enablebanking.md, "Actual Budget's own integration"):
 *
 * - the server runs in a mount namespace of its own (`unshare -m`, as root) where a hosts file written
 *   for the run is bind-mounted over /etc/hosts, naming both hosts at one random loopback address
 *   (127.x.y.z; every 127/8 address is loopback on Linux) — nothing else on the machine sees it;
 * - a TLS reverse proxy here listens on that address's port 443 with a leaf certificate for both names,
 *   signed by a throwaway CA made with `openssl` for the run, and forwards by `Host`:
 *   api.enablebanking.com → `<Sandbank>/enablebanking`, bankaccountdata.gocardless.com →
 *   `<Sandbank>/gocardless` (the `/api/v2` part is in both paths);
 * - the server trusts that CA through NODE_EXTRA_CA_CERTS (Node adds it to its roots; undici's fetch,
 *   which both of Actual's clients use, reads them).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../helpers.ts';
import { lifecycleCalls } from '../lifecycle-calls.ts';

/** The password of the admin the tests bootstrap in Actual's server. */
export const ACTUAL_PASSWORD = 'sandbank-actual-test';

const SCRIPT = new URL('../../../../scripts/ensure-actual-sync-server.sh', import.meta.url).pathname;
const NODE = process.execPath;

/** Sandbank's base path for each host Actual calls. */
const UPSTREAMS: Record<string, string> = {
  'api.enablebanking.com': '/enablebanking',
  'bankaccountdata.gocardless.com': '/gocardless',
};

/** Installs Actual's sync server the first time (minutes: better-sqlite3 is built), then only finds it. */
export function ensureActualSyncServer(): string {
  const out = execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 900_000 });
  return out.trim().split('\n').at(-1) ?? '';
}

/** A CA and a leaf for both hosts, made with openssl in `dir`; the CA's PEM, the leaf's key and chain. */
function makeCertificates(dir: string) {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=Sandbank test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=api.enablebanking.com', '-keyout', 'leaf.key', '-out', 'leaf.csr');
  const names = Object.keys(UPSTREAMS).map((host) => `DNS:${host}`);
  writeFileSync(path.join(dir, 'leaf.ext'), `subjectAltName=${names.join(',')}\nextendedKeyUsage=serverAuth\n`);
  run(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'leaf.ext',
    '-out',
    'leaf.pem',
  );
  return {
    ca: path.join(dir, 'ca.pem'),
    key: readFileSync(path.join(dir, 'leaf.key')),
    cert: readFileSync(path.join(dir, 'leaf.pem')),
  };
}

/** A request that went through the proxy: its host, method and path as Actual sent them, and Sandbank's status. */
interface Proxied {
  host: string;
  method: string;
  path: string;
  status: number;
}

/** The TLS proxy on port 443 of a random loopback address not in use. */
async function startProxy(sandbankUrl: string, key: Buffer, cert: Buffer, seen: Proxied[]) {
  const target = new URL(sandbankUrl);
  const server = https.createServer({ key, cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:443$/, '');
    const base = UPSTREAMS[host];
    if (base === undefined) {
      res.writeHead(421).end();
      return;
    }
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: base + (req.url ?? '/'),
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        seen.push({ host, method: req.method ?? '', path: req.url ?? '', status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  for (let attempt = 0; ; attempt++) {
    const address = `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(443, address, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return { server, address };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
    }
  }
}

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export type ActualServer = Awaited<ReturnType<typeof startActualSyncServer>>;

/**
 * Actual's sync server on a free loopback port with a fresh data folder, its calls to Enable Banking and
 * GoCardless landing on `sandbankUrl`; `call` speaks its HTTP API with the session of its bootstrapped admin.
 */
export async function startActualSyncServer(installDir: string, sandbankUrl: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbank-actual-'));
  const { ca, key, cert } = makeCertificates(dir);
  const proxied: Proxied[] = [];
  const proxy = await startProxy(sandbankUrl, key, cert, proxied);
  const hosts = path.join(dir, 'hosts');
  writeFileSync(hosts, `127.0.0.1 localhost\n::1 localhost\n${proxy.address} ${Object.keys(UPSTREAMS).join(' ')}\n`);

  mkdirSync(path.join(dir, 'data'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log: string[] = [];
  const entry = path.join(installDir, 'node_modules/@actual-app/sync-server/build/bin/actual-server.js');
  // `unshare -m` without --fork execs in place, and so does `exec`: the child's pid is Node's.
  const child: ChildProcess = spawn(
    'unshare',
    ['-m', '--propagation', 'private', 'sh', '-c', 'mount --bind "$0" /etc/hosts && exec "$1" "$2"', hosts, NODE, entry],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        ACTUAL_PORT: String(port),
        ACTUAL_HOSTNAME: '127.0.0.1',
        ACTUAL_DATA_DIR: path.join(dir, 'data'),
        NODE_EXTRA_CA_CERTS: ca,
        // Actual's debug output of both providers, for a failing test's message.
        DEBUG: 'actual:enable-banking:*',
        // Under `pnpm test:instants`, Actual's clock is shifted as the test's and Sandbank's are.
        ...Object.fromEntries(
          Object.entries(process.env).filter(([name]) => name === 'LD_PRELOAD' || name.startsWith('FAKETIME')),
        ),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => log.push(String(chunk)));
  child.stderr?.on('data', (chunk) => log.push(String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  async function stop(): Promise<void> {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    proxy.server.closeAllConnections();
    await new Promise((resolve) => proxy.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }

  /** Actual's answer to its bootstrap: the admin's session token (the server is stopped if it never comes). */
  async function ready(): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Actual's sync server exited (${child.exitCode}):\n${log.join('')}`);
      const answers = await fetch(`${url}/info`).then(
        (res) => res.ok,
        () => false,
      );
      if (answers) break;
      if (Date.now() > deadline) throw new Error(`Actual's sync server did not answer /info within 60 s:\n${log.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const bootstrap = await fetch(`${url}/account/bootstrap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: ACTUAL_PASSWORD }),
    }).then((res) => res.json() as Promise<{ status: string; data?: { token?: string } }>);
    const token = bootstrap.data?.token;
    if (!token) throw new Error(`Actual's bootstrap gave no token: ${JSON.stringify(bootstrap)}`);
    return token;
  }

  let token: string;
  try {
    token = await ready();
  } catch (error) {
    await stop();
    throw error;
  }

  /** A call to Actual's HTTP API as its web app makes it (JSON, the session token); the parsed body. */
  async function call<T = { status: string; data: Record<string, unknown> }>(
    pathname: string,
    body: unknown = {},
    headers: Record<string, string> = {},
  ): Promise<T> {
    const res = await fetch(url + pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-actual-token': token, ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`Actual ${pathname} answered ${res.status}: ${text}\n${log.join('')}`);
    return JSON.parse(text) as T;
  }

  return { url, call, proxied, log, stop, proxyAddress: proxy.address };
}

/** A day as Actual's servers write one: the UTC date, `offsetDays` from now. */
export const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The account's booked and available balances in minor units — Actual's cents, for PLN. */
export async function balancesOf(app: TestApp, user: TestUser, accountId: string) {
  const res = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
  return res.body.data as { balance: number; availableBalance: number };
}

/**
 * An account whose history Actual's Enable Banking sync asks for: its `date_to` is the UTC day of the
 * wall clock, so nothing here moves the world's clock past it (from midnight in Warsaw to midnight UTC,
 * today's entries still wait for the next UTC day). A salary from Pracodawca two days
 * back, an Orlen payment booked now, a Żabka card payment authorised yesterday and booked now (value
 * day and booking day differ), and a Biedronka card payment still pending (its id is `pendingId`).
 */
export async function seedWithinToday(app: TestApp, user: TestUser) {
  const { act, pendingCard } = lifecycleCalls(() => app);
  const accountId = await openAccount(app, user, 'Konto');
  const salary = await simulate(app, user, {
    accountId,
    amount: 4_321_00,
    description: 'Pensja',
    merchant: 'Pracodawca',
    date: new Date(Date.now() - 2 * 86_400_000).toISOString(),
  });
  expect(salary.status).toBe(201);
  expect((await simulate(app, user, { accountId, amount: -19_99, merchant: 'Orlen', description: 'Paliwo' })).status).toBe(201);
  const zabka = await pendingCard(user, accountId, -12_34, {
    description: 'Hot dog',
    date: new Date(Date.now() - 86_400_000).toISOString(),
  });
  expect((await act(user, zabka.id, 'post')).status).toBe(200);
  const biedronka = await pendingCard(user, accountId, -45_67, { merchant: 'Biedronka', description: 'Zakupy' });
  return { accountId, pendingId: biedronka.id };
}
