/**
 * `pnpm start`: everything a newcomer needs in one command — PostgreSQL (embedded unless
 * DATABASE_URL is set), migrations, the API and one worker. Ctrl-C stops all of it.
 * `pnpm dev` is the same with the API and worker restarted on file changes (`--watch`), and the
 * console's Vite dev server (hot reload, proxying the API) on CONSOLE_DEV_PORT (default 5173).
 * Both build the console first when its sources changed (scripts/build-console.ts). `pnpm start`
 * runs the API's and worker's production bundles (scripts/build-server.ts, rebuilt here when the
 * sources changed); `pnpm dev` runs their TypeScript sources.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, loadConfig, SERVER_ENV, SERVER_NODE_FLAGS } from '@sandbank/config';
import { createOrm, EmbeddedPostgresError, migrateDatabase, resolveDatabase } from '@sandbank/db';
import { buildConsole } from './build-console.ts';
import { buildServer, bundlePath } from './build-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const config = loadConfig();
const logger = createLogger(config, 'sandbank');

const database = await resolveDatabase(config, (message) => logger.warn({ message }, 'embedded postgres')).catch(
  (error: unknown) => {
    // One line that names the cause and the fix, not a stack trace.
    if (!(error instanceof EmbeddedPostgresError)) throw error;
    process.stderr.write(`sandbank: the embedded PostgreSQL did not start: ${error.message}\n`);
    process.exit(1);
  },
);
logger.info(database.embedded ? `embedded PostgreSQL on port ${config.database.embeddedPort}` : 'using DATABASE_URL');
const orm = await createOrm({ url: database.url, poolSize: 2 });
await migrateDatabase(orm, database.url);
await orm.close();

try {
  buildConsole((message) => logger.info(message));
} catch (error) {
  // The API and the worker do not need the console: start them; /console answers 503 until it builds.
  logger.error({ err: error }, 'console build failed');
}

// The production bundles, unless watching sources; the sources too when the bundles cannot be built.
const entries = { api: 'apps/api/src/main.ts', worker: 'apps/worker/src/main.ts' };
if (!watch) {
  const bundled = await buildServer((message) => logger.info(message)).catch((error: unknown) => {
    logger.error({ err: error }, 'server bundle failed; running the sources');
    return 'failed' as const;
  });
  if (bundled === 'fresh' || bundled === 'built')
    Object.assign(entries, { api: bundlePath('api'), worker: bundlePath('worker') });
}

const children = new Map<string, ChildProcess>();
let stopping = false;

function launch(name: string, entry: string, args: string[], cwd = root): void {
  const child = spawn(process.execPath, [...args, entry], {
    cwd,
    stdio: 'inherit',
    env: {
      ...(name === 'console' ? {} : SERVER_ENV),
      ...process.env,
      DATABASE_URL: database.url,
      SANDBANK_API_URL: `http://127.0.0.1:${config.http.port}`,
    },
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      logger.error({ process: name, code, signal }, 'process exited; stopping everything');
      void stop(1);
    }
  });
}

async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const exits = [...children.values()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of children.values()) child.kill('SIGTERM');
  await Promise.all(exits);
  await database.stop();
  logger.info('stopped');
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

// The API and worker restart on changes under apps/ and packages/ (the console's own files are Vite's).
const watchArgs = watch ? ['--watch-path=apps/api', '--watch-path=apps/worker', '--watch-path=packages'] : [];
launch('api', entries.api, [...SERVER_NODE_FLAGS.api, ...watchArgs]);
launch('worker', entries.worker, [...SERVER_NODE_FLAGS.worker, ...watchArgs]);
if (watch) {
  const consoleDir = path.join(root, 'apps/console');
  launch('console', path.join(consoleDir, 'node_modules/vite/bin/vite.js'), [], consoleDir);
  logger.info(`console with hot reload: http://127.0.0.1:${process.env.CONSOLE_DEV_PORT ?? 5173}/console/`);
}
