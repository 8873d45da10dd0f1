/**
 * The API process: parse config, listen at once (so `/healthz` answers on a cold start), then
 * connect to the database and apply migrations; `/readyz` turns 200 when that is done.
 */
import type { Server } from 'node:http';
import { createLogger, loadConfig, resolveSecrets } from '@sandbank/config';
import { createOrm, migrateDatabase, resolveDatabase } from '@sandbank/db';
import { buildApp } from './app.ts';

const config = loadConfig();
const logger = createLogger(config, 'api');

async function main(): Promise<void> {
  const database = await resolveDatabase(config, (message) => logger.warn({ message }, 'embedded postgres'));
  const orm = await createOrm({ url: database.url, poolSize: config.database.poolSize });
  const app = buildApp({ config, secrets: resolveSecrets(config), orm, logger });
  const server: Server = app.listen(config.http.port, config.http.host, () => {
    logger.info({ url: `http://${config.http.host}:${config.http.port}`, embeddedDatabase: database.embedded }, 'api listening');
  });
  server.keepAliveTimeout = 65_000;
  await migrateDatabase(orm, database.url);
  logger.info('database migrated; ready');

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
