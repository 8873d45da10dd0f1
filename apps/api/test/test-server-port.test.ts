/**
 * The test suite's PostgreSQL port (packages/testing/src/test-server.ts): the default port is used
 * when free or when a Sandbank test server answers there (shared by every clone's runs), never
 * when something else listens there, be it another program or another PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@sandbank/db';
import { freePort, waitUntil, withClient } from '@sandbank/testing';
import { chooseTestServerPort, probeTestServer } from '@sandbank/testing/test-server';
import { afterAll, expect, inject, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const noDataDir = path.join(repoRoot, '.data', 'no-such-test-data');
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it('uses a free default port, and TEST_PG_PORT as it is', async () => {
  const port = await freePort();
  expect(await probeTestServer(port)).toBe('free');
  expect(await chooseTestServerPort(noDataDir, { requested: '', defaultPort: port })).toBe(port);
  expect(await chooseTestServerPort(noDataDir, { requested: '61234', defaultPort: port })).toBe(61234);
});

it("shares the test server this run uses (another clone's run finds it the same way)", async () => {
  const port = Number(new URL(inject('sandbankTemplateUrl')).port);
  expect(await probeTestServer(port)).toBe('ours');
  expect(await chooseTestServerPort(noDataDir, { requested: '', defaultPort: port })).toBe(port);
});

it('never uses a default port that another program holds', async () => {
  const sockets = new Set<net.Socket>();
  const other = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {}); // the client hangs up as it likes
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => other.close(resolve));
  });
  const port = (other.address() as net.AddressInfo).port;
  expect(await probeTestServer(port)).toBe('other');
  const chosen = await chooseTestServerPort(noDataDir, { requested: '', defaultPort: port });
  expect(chosen).not.toBe(port);
  expect(await probeTestServer(chosen)).toBe('free');
});

it('never uses a default port where a PostgreSQL that is not a Sandbank test server answers', { timeout: 60_000 }, async () => {
  const dataDir = path.join(repoRoot, '.data', `not-a-test-server-${process.pid}`);
  const foreign = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'postgres' });
  cleanups.push(async () => {
    await foreign.stop();
    const note = path.join(dataDir, 'pg.location');
    const relocated = fs.existsSync(note) ? /lives in (\S+):/.exec(fs.readFileSync(note, 'utf8'))?.[1] : undefined;
    for (const dir of [dataDir, relocated]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const port = Number(new URL(foreign.url).port);
  expect(await probeTestServer(port)).toBe('other');
  expect(await chooseTestServerPort(noDataDir, { requested: '', defaultPort: port })).not.toBe(port);
});

it('a shared server outlives the run that started it (other runs may still use it)', { timeout: 60_000 }, async () => {
  const dataDir = path.join(repoRoot, '.data', `outliving-${process.pid}`);
  const port = await freePort();
  const started = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { startEmbeddedPostgres } from '@sandbank/db';
       await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port}, database: 'postgres', outliveParent: true });
       process.exit(0);`,
    ],
    { cwd: path.join(repoRoot, 'apps/api'), encoding: 'utf8' },
  );
  const pidFile = () => {
    const note = path.join(dataDir, 'pg.location');
    const where = fs.existsSync(note) ? /lives in (\S+): /.exec(fs.readFileSync(note, 'utf8'))?.[1] : path.join(dataDir, 'pg');
    return path.join(where ?? '', 'postmaster.pid');
  };
  cleanups.push(async () => {
    if (fs.existsSync(pidFile())) {
      process.kill(Number(fs.readFileSync(pidFile(), 'utf8').split('\n')[0]), 'SIGINT');
      await waitUntil(() => !fs.existsSync(pidFile()), { timeoutMs: 30_000, intervalMs: 50, what: 'the test server stopped' });
    }
    const note = path.join(dataDir, 'pg.location');
    const relocated = fs.existsSync(note) ? /lives in (\S+):/.exec(fs.readFileSync(note, 'utf8'))?.[1] : undefined;
    for (const dir of [dataDir, relocated]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  expect(started.status, started.stderr).toBe(0);
  const answer = await withClient(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`, (client) =>
    client.query('select 1 as ok'),
  );
  expect(answer.rows).toEqual([{ ok: 1 }]);
});
