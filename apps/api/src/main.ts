/**
 * The API process. It listens first, with a tiny handler that already answers `/healthz` (a cold
 * start is what wakes a sleeping instance), then loads the app, connects to the database and
 * applies migrations; `/readyz` turns 200 when all of that is done.
 */
import { createServer } from 'node:http';
import { createLogger, loadConfig } from '@sandbank/config';
import { bootingHandler } from './http/booting.ts';

const config = loadConfig();
const logger = createLogger(config, 'api');
const server = createServer(bootingHandler);
server.keepAliveTimeout = 65_000;
server.listen(config.http.port, config.http.host, () => {
  logger.info({ url: `http://${config.http.host}:${config.http.port}` }, 'api listening');
});

async function main(): Promise<void> {
  const [{ createOrm, migrateDatabase, resolveDatabase }, { resolveSecrets }, { buildApp }] = await Promise.all([
    import('@sandbank/db'),
    import('@sandbank/config'),
    import('./app.ts'),
  ]);
  const database = await resolveDatabase(config, (message) => logger.warn({ message }, 'embedded postgres'));
  const orm = await createOrm({ url: database.url, poolSize: config.database.poolSize });
  const app = buildApp({ config, secrets: resolveSecrets(config), orm, logger });
  server.removeListener('request', bootingHandler);
  server.on('request', app);
  await migrateDatabase(orm, database.url);
  logger.info({ embeddedDatabase: database.embedded }, 'database migrated; ready');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api stopping');
    server.close();
    server.closeIdleConnections();
    await orm.close();
    await database.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'api failed to start');
  process.exit(1);
});
