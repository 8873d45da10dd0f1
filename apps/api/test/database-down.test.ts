/**
 * PostgreSQL stopped under load (issue 11): every endpoint that needs it answers 503
 * SERVICE_UNAVAILABLE with Retry-After — never a 500 — and the API recovers by itself once the
 * database is back. The test runs its own PostgreSQL so it can stop and restart it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrm, migrateDatabase, startEmbeddedPostgres } from '@sandbank/db';
import { freePort, waitUntil } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, expect, it } from 'vitest';
import { startTestApp } from './helpers.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-down-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('answers 503 with Retry-After while PostgreSQL is down, never 500, and recovers when it is back', async () => {
  const port = await freePort();
  let postgres = await startEmbeddedPostgres({ dataDir, port, database: 'sandbank_down' });
  const orm = await createOrm({ url: postgres.url, poolSize: 2 });
  await migrateDatabase(orm, postgres.url);
  await orm.close();
  const app = await startTestApp({ LOG_LEVEL: 'silent' }, { databaseUrl: postgres.url });
  try {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const seen: { status: number; code?: string; retryAfter: string | null }[] = [];
    let running = true;
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (running) {
          const res =
            seen.length % 2 === 0
              ? await simulate(app, user, { accountId, amount: 100 })
              : await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
          seen.push({ status: res.status, code: res.body?.code, retryAfter: res.headers.get('retry-after') });
        }
      }),
    );
    const until = (check: () => boolean) => waitUntil(check, { timeoutMs: 20_000, intervalMs: 50, what: 'the load to see it' });

    await until(() => seen.some((r) => r.status === 201));
    await postgres.stop();
    const down = seen.length;
    await until(() => seen.slice(down).filter((r) => r.status === 503).length >= 10);
    postgres = await startEmbeddedPostgres({ dataDir, port, database: 'sandbank_down' });
    const up = seen.length;
    await until(() => seen.slice(up).some((r) => r.status === 201));
    running = false;
    await load;

    expect(seen.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    const unavailable = seen.filter((r) => r.status === 503);
    expect(unavailable.length).toBeGreaterThanOrEqual(10);
    for (const r of unavailable)
      expect(r).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: expect.stringMatching(/^\d+$/) });
    expect(seen.slice(up).some((r) => r.status === 201)).toBe(true);
    expect((await simulate(app, user, { accountId, amount: 1 })).status).toBe(201);
  } finally {
    await app.close();
    await postgres.stop();
  }
}, 120_000);
