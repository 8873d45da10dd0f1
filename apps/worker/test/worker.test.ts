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
    const listening = await withClient(database.url, (client) =>
      client.query(`select count(*)::int as n from pg_stat_activity where query ilike 'listen%'`),
    );
    expect(listening.rows[0].n).toBeGreaterThanOrEqual(1);
    await worker.stop();
    await expect(worker.runner.promise).resolves.toBeUndefined();
  });
});
