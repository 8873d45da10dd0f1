/** The worker process: delivers webhooks. Stops gracefully on SIGTERM/SIGINT (running jobs finish or are released). */
import { createLogger, failStartup, loadConfig } from '@sandbank/config';
import { createOrm, migrateDatabase, resolveDatabase } from '@sandbank/db';
import { surviveLostConnections } from './connection-loss.ts';
import { startWorker } from './worker.ts';

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return failStartup('sandbank worker', error);
  }
})();
const logger = createLogger(config, 'worker');
surviveLostConnections(logger);

let stopRequested: string | null = null;
let shutdown = async (signal: string) => {
  // Before start-up finished: remember it; main() stops right after starting.
  stopRequested = signal;
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

async function main(): Promise<void> {
  const database = await resolveDatabase(config, (message) => logger.warn({ message }, 'embedded postgres'));
  const orm = await createOrm({ url: database.url, poolSize: 2 });
  await migrateDatabase(orm, database.url);
  await orm.close();
  const worker = await startWorker({ config, databaseUrl: database.url, logger });
  logger.info({ concurrency: config.worker.concurrency }, 'worker started');

  let stopping = false;
  shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    await worker.stop();
    await database.stop();
    process.exit(0);
  };
  if (stopRequested) await shutdown(stopRequested);
}

main().catch((error: unknown) => {
  failStartup('sandbank worker', error);
});
