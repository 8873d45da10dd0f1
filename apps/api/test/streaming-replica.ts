/**
 * A primary and its streaming replica of our own, for the read-replica tests: Debian's PostgreSQL
 * 15 binaries (the cluster drill's; scripts/ensure-cluster-tools.sh installs them), a primary
 * initialised in a temp folder and migrated, a replica cloned from it with `pg_basebackup -R`
 * (streaming, hot standby), each on a free port. `stop()` stops both and removes the folder.
 *
 * Why not the suite's shared test server: its binaries (the embedded package's) have no
 * pg_basebackup, and a clone of it would copy every other test file's databases.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createOrm, migrateDatabase } from '@sandbank/db';
import { waitUntil, withClient } from '@sandbank/testing';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why the replica cannot run here, or null when it can (only missing binaries are a reason). */
export function replicaUnavailable(): string | null {
  for (const tool of ['initdb', 'postgres', 'pg_basebackup']) {
    if (!fs.existsSync(path.join(PG_BIN, tool))) {
      return `no ${tool} in ${PG_BIN} (Debian's postgresql-15; scripts/ensure-cluster-tools.sh installs it, or set PG_BIN)`;
    }
  }
  return null;
}

export interface StreamingPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica alone (immediate shutdown), as a replica that dies. */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** As root, PostgreSQL runs as the unprivileged `postgres` user (the embedded server's rule too). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

const SERVER_SETTINGS = [
  'listen_addresses=127.0.0.1',
  'wal_level=replica',
  'max_wal_senders=4',
  'hot_standby=on',
  // A throwaway cluster: no crash safety needed, and a shared CPU.
  'fsync=off',
  'full_page_writes=off',
  'max_connections=60',
  'shared_buffers=32MB',
];

export async function startStreamingPair(): Promise<StreamingPair> {
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-replica-'));
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const run = (tool: string, args: string[]) =>
    execFileSync(path.join(PG_BIN, tool), args, { stdio: 'pipe', ...(user ?? {}), cwd: dir });
  const children: ChildProcess[] = [];
  const start = (dataDir: string, port: number) => {
    const settings = [...SERVER_SETTINGS, `port=${port}`, `unix_socket_directories=${dir}`].flatMap((s) => ['-c', s]);
    const log = fs.openSync(path.join(dir, `${path.basename(dataDir)}.log`), 'a');
    if (user) fs.fchownSync(log, user.uid, user.gid);
    const child = spawn(path.join(PG_BIN, 'postgres'), ['-D', dataDir, ...settings], {
      stdio: ['ignore', log, log],
      ...(user ?? {}),
    });
    fs.closeSync(log);
    children.push(child);
    return child;
  };
  const halt = (child: ChildProcess | undefined) =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGQUIT'); // immediate shutdown: nothing here needs keeping
    });
  const stop = async () => {
    await Promise.all(children.map(halt));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [primaryPort, replicaPort] = [await freePort(), await freePort()];
    run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    start(primaryDir, primaryPort);
    const admin = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    await waitUntil(() => withClient(admin, async () => true).catch(() => false), {
      timeoutMs: 15_000,
      what: 'the primary to start',
    });
    await withClient(admin, (client) => client.query('create database sandbank'));
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/sandbank`;
    const orm = await createOrm({ url: primaryUrl, poolSize: 2 });
    try {
      await migrateDatabase(orm, primaryUrl);
    } finally {
      await orm.close();
    }
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    start(replicaDir, replicaPort);
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/sandbank`;
    await waitUntil(
      () =>
        withClient(replicaUrl, async (client) => {
          const { rows } = await client.query<{ streaming: boolean }>(
            `select pg_is_in_recovery() and exists (select from pg_stat_wal_receiver where status = 'streaming') as streaming`,
          );
          return rows[0]?.streaming === true;
        }).catch(() => false),
      { timeoutMs: 15_000, what: 'the replica to stream' },
    );
    return { primaryUrl, replicaUrl, stopReplica: () => halt(children[1]), stop };
  } catch (error) {
    const logs = ['primary', 'replica']
      .map((name) => path.join(dir, `${name}.log`))
      .filter((file) => fs.existsSync(file))
      .map((file) => `${path.basename(file)}:\n${fs.readFileSync(file, 'utf8').slice(-2000)}`);
    await stop();
    throw new Error(`the streaming pair did not start: ${String(error)}\n${logs.join('\n')}`);
  }
}
