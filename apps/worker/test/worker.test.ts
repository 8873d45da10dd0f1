import { createLogger, loadConfig } from '@sandbank/config';
import { createTestDatabase, type TestDatabase, withClient } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../src/worker.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('worker process', () => {
  it('starts against a migrated database and stops gracefully', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url });
    const worker = await startWorker({ config, databaseUrl: database.url, logger: createLogger(config, 'worker') });
    // graphile-worker issues its LISTEN shortly after `run` resolves: wait for it (bounded).
    await expect
      .poll(
        async () => {
          const { rows } = await withClient(database.url, (client) =>
            client.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and query ilike 'listen%'`, [
              database.name,
            ]),
          );
          return rows[0].n;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(1);
    await worker.stop();
    await expect(worker.runner.promise).resolves.toBeUndefined();
  });
});
