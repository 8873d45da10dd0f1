/**
 * The real system behind the console tests: the API's test app (buildApp on an ephemeral port,
 * a fresh database, serving /console from apps/console/dist), one real worker delivering
 * webhooks, and a local receiver.
 */
import { startTestApp } from '@sandbank/api/test-helpers';
import { loadConfig } from '@sandbank/config';
import { startWorker } from '@sandbank/worker';
import { startReceiver } from '@sandbank/worker/test-receiver';

const FAST_WORKER = {
  LOG_LEVEL: 'silent',
  WEBHOOK_TIMEOUT_MS: '2000',
  WORKER_RELAY_POLL_MS: '20',
};

export type ConsoleStack = Awaited<ReturnType<typeof startConsoleStack>>;

/** `env`: more settings for the API and the worker (e.g. a low LIMIT_SNAPSHOTS to see the limit's error). */
export async function startConsoleStack(env: Record<string, string> = {}) {
  const app = await startTestApp({ ...FAST_WORKER, ...env });
  const receiver = await startReceiver();
  receiver.respond = () => 204;
  const worker = await startWorker({ config: loadConfig(app.env), databaseUrl: app.databaseUrl, logger: app.deps.logger });
  return {
    app,
    receiver,
    url: app.url,
    close: async () => {
      await worker.stop();
      await receiver.close();
      await app.close();
    },
  };
}
