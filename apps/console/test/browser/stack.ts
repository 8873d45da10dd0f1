/**
 * The real system behind the console tests: the API's test app (buildApp on an ephemeral port,
 * a fresh database, serving /console from apps/console/dist), one real worker delivering
 * webhooks, and a local receiver; and Debian's Chromium to drive the console. `setUpConsoleStack()`
 * starts them before a file's tests and closes them after.
 */
import { startTestApp, type TestApp } from '@sandbank/api/test-helpers';
import { loadConfig } from '@sandbank/config';
import { launchBrowser } from '@sandbank/testing/browser';
import { startWorker } from '@sandbank/worker';
import { type Receiver, startReceiver } from '@sandbank/worker/test-receiver';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const FAST_WORKER = {
  LOG_LEVEL: 'silent',
  WEBHOOK_TIMEOUT_MS: '2000',
  WORKER_RELAY_POLL_MS: '20',
};

/** The app alone (`worker: false`) as a test file sees it, with the browser. */
export interface AppStack {
  app: TestApp;
  url: string;
  browser: Browser;
}

/** The whole stack as a test file sees it: the app, the receiver the worker delivers to, the browser. */
export interface ConsoleStack extends AppStack {
  receiver: Receiver;
}

interface Options {
  /** More settings for the API and the worker (e.g. a low LIMIT_SNAPSHOTS to see the limit's error). */
  env?: Record<string, string>;
  /** How the receiver answers (default 204 to everything). */
  respond?: Receiver['respond'];
}

interface Started {
  app: TestApp;
  receiver?: Receiver;
  close(): Promise<void>;
}

async function startStack(options: Options & { worker?: boolean }): Promise<Started> {
  const app = await startTestApp({ ...FAST_WORKER, ...options.env });
  if (options.worker === false) return { app, close: () => app.close() };
  const receiver = await startReceiver();
  receiver.respond = options.respond ?? (() => 204);
  const worker = await startWorker({ config: loadConfig(app.env), databaseUrl: app.databaseUrl, logger: app.deps.logger });
  return {
    app,
    receiver,
    close: async () => {
      await worker.stop();
      await receiver.close();
      await app.close();
    },
  };
}

/**
 * Starts the stack and the browser in `beforeAll` and closes both in `afterAll`; the object it
 * returns reads them once started (inside tests and later hooks). `worker: false` starts the app
 * alone, for files that deliver no webhook.
 */
export function setUpConsoleStack(options: Omit<Options, 'respond'> & { worker: false }): AppStack;
export function setUpConsoleStack(options?: Options): ConsoleStack;
export function setUpConsoleStack(options: Options & { worker?: boolean } = {}): ConsoleStack {
  let started: Started | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    // Each half is kept as soon as it is up, so afterAll closes it even when the other failed.
    const [stack, chromium] = await Promise.allSettled([
      startStack(options).then((value) => (started = value)),
      launchBrowser().then((value) => (browser = value)),
    ]);
    for (const result of [stack, chromium]) if (result.status === 'rejected') throw result.reason;
  });
  afterAll(async () => {
    await browser?.close();
    await started?.close();
  });
  const running = (): Started => {
    if (!started) throw new Error('the console stack is not running: setUpConsoleStack() starts it in beforeAll');
    return started;
  };
  return {
    get app() {
      return running().app;
    },
    get url() {
      return running().app.url;
    },
    get receiver() {
      const { receiver } = running();
      if (!receiver) throw new Error('this stack has no worker and no receiver (worker: false)');
      return receiver;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not running: setUpConsoleStack() launches it in beforeAll');
      return browser;
    },
  };
}
