/**
 * The embedded PostgreSQL from a clone in a private folder (issue 11): as root, the server runs as
 * the unprivileged `postgres` user, which cannot reach a mode-700 folder such as /root or a
 * `mktemp -d`. The launcher must still start it (binaries and data placed where that user can
 * reach them, the private folder left closed), keep the data across restarts, and stop it.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@sandbank/db';
import { freePort, withClient } from '@sandbank/testing';
import { afterAll, expect, it } from 'vitest';

const isRoot = process.getuid?.() === 0;
const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-private-'));
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

const query = (url: string, text: string) => withClient(url, async (client) => (await client.query(text)).rows);

// Only root switches to the postgres user; as anyone else the folder is the user's own and reachable.
it.runIf(isRoot)(
  'starts from a data folder under a mode-700 parent, keeps its data across a restart, and stops',
  async () => {
    fs.chmodSync(parent, 0o700);
    const dataDir = path.join(parent, 'clone', '.data');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'private_test' });
    await query(first.url, 'create table kept (n int); insert into kept values (42)');
    await first.stop();

    expect(fs.statSync(parent).mode & 0o777).toBe(0o700); // nothing of the private folder was opened up
    expect(fs.readFileSync(`${path.join(dataDir, 'pg')}.location`, 'utf8')).toContain('/var/lib/sandbank/data/');
    const owner = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const relocated = /lives in (\S+):/.exec(fs.readFileSync(`${path.join(dataDir, 'pg')}.location`, 'utf8'))?.[1] as string;
    expect(String(fs.statSync(relocated).uid)).toBe(owner);
    expect(fs.statSync(relocated).mode & 0o777).toBe(0o700);

    const again = await startEmbeddedPostgres({ dataDir, port, database: 'private_test' });
    expect(await query(again.url, 'select n from kept')).toEqual([{ n: 42 }]);
    await again.stop();
    await expect(query(again.url, 'select 1')).rejects.toThrow();
    fs.rmSync(relocated, { recursive: true, force: true });
  },
  120_000,
);

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() && true));
    socket.once('error', () => resolve(false));
  });

it('stops its server when the process that started it exits without stopping it (a crashed bench)', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-orphan-'));
  const dataDir = path.join(folder, '.data');
  const port = await freePort();
  const script = `import { startEmbeddedPostgres } from '@sandbank/db';
    await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port}, database: 'postgres' });
    process.exit(3);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: path.join(import.meta.dirname, '..'),
    encoding: 'utf8',
  });
  expect(child.status, child.stderr).toBe(3);
  // The server had its fast shutdown asked for as its parent exited: it stops listening.
  await expect.poll(() => listening(port), { timeout: 20_000 }).toBe(false);
  // As root the data lives where the postgres user can reach it (the first test).
  const location = `${path.join(dataDir, 'pg')}.location`;
  const relocated = fs.existsSync(location) ? /lives in (\S+):/.exec(fs.readFileSync(location, 'utf8'))?.[1] : undefined;
  if (relocated) fs.rmSync(relocated, { recursive: true, force: true });
  fs.rmSync(folder, { recursive: true, force: true });
}, 120_000);

it("outlives a Ctrl-C to its parent's process group until the parent stops it, and surfaces no expected errors", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-ctrlc-'));
  const dataDir = path.join(folder, '.data');
  const port = await freePort();
  // The parent logs what the launcher surfaces, makes a statement fail as graphile-worker's first start
  // does, and on SIGINT (the terminal's, to the whole group) checks the server still answers, then stops it.
  const script = `import { startEmbeddedPostgres } from '@sandbank/db';
    import { withClient } from '@sandbank/testing';
    const surfaced = [];
    const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port}, database: 'postgres', log: (line) => surfaced.push(line) });
    await withClient(db.url, (client) => client.query('select id from graphile_worker.migrations').catch(() => {}));
    process.on('SIGINT', async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const alive = await withClient(db.url, (client) => client.query('select 1')).then(() => true, () => false);
      await db.stop();
      process.stdout.write(JSON.stringify({ alive, surfaced }));
      process.exit(0);
    });
    process.stdout.write('ready\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: path.join(import.meta.dirname, '..'),
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await expect.poll(() => out, { timeout: 60_000 }).toContain('ready\n');
  process.kill(-(child.pid as number), 'SIGINT');
  expect(await exited).toBe(0);
  expect(JSON.parse(out.slice(out.indexOf('\n') + 1))).toEqual({ alive: true, surfaced: [] });
  expect(await listening(port)).toBe(false);
  const location = `${path.join(dataDir, 'pg')}.location`;
  const relocated = fs.existsSync(location) ? /lives in (\S+):/.exec(fs.readFileSync(location, 'utf8'))?.[1] : undefined;
  if (relocated) fs.rmSync(relocated, { recursive: true, force: true });
  fs.rmSync(folder, { recursive: true, force: true });
}, 120_000);
