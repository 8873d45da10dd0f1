/**
 * Readiness and stops during start-up. The process migrates under an advisory lock that replicas
 * share; a test that holds that lock keeps the process inside `migrateDatabase` for as long as it
 * likes. While there, `/readyz` must be 503 even though the database is already migrated (another
 * replica did it), and a stop must still end the process promptly, exit code 0, with no "cannot
 * start" line (it once hung on closing the pool, and before that reported a failed start).
 */
import { MIGRATION_LOCK_ID } from '@sandbank/db';
import { createTestDatabase, pause, type TestDatabase, waitUntil } from '@sandbank/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from './api-process.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(); // migrated, as a replica that started first leaves it
});
afterAll(() => database.drop());

/** A connection holding the migration lock, as a replica in the middle of migrating does. */
async function holdMigrationLock(): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
  return holder;
}

/** Waits until the app (not the booting handler) answers: its `/readyz` names why it is not ready. */
async function appServing(api: ApiProcess): Promise<{ status: number; body: { code?: string; message?: string } }> {
  return waitUntil(
    async () => {
      const res = await fetch(`${api.baseUrl}/readyz`).catch(() => undefined);
      if (!res) return undefined;
      const body = (await res.json()) as { code?: string; message?: string };
      return body.message?.startsWith('Starting up') ? undefined : { status: res.status, body };
    },
    { timeoutMs: 60_000, intervalMs: 10, what: 'the app (not the booting handler) answering /readyz' },
  );
}

it('/readyz is 503 until its own migration run ends, though the database is migrated', { timeout: 60_000 }, async () => {
  const holder = await holdMigrationLock();
  const api = await startApiProcess({ LOG_LEVEL: 'silent', DATABASE_URL: database.url });
  try {
    const blocked = await appServing(api);
    expect(blocked.status).toBe(503);
    expect(blocked.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: still starting (migrations)' });
    await pause(300, 'the API keeps waiting for the migration lock: time for a wrong ready to show');
    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(503); // still waiting for the lock
    await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    await api.ready();
  } finally {
    await holder.end();
    await api.stop(9_000);
  }
});

it('a stop while waiting for the migration lock ends within the bound, exit code 0', { timeout: 60_000 }, async () => {
  const holder = await holdMigrationLock();
  const api = await startApiProcess({ LOG_LEVEL: 'silent', DATABASE_URL: database.url });
  try {
    await appServing(api);
    const stopped = performance.now();
    expect(await api.stop(9_000)).toBe(0);
    expect(performance.now() - stopped).toBeLessThan(9_000);
    expect(api.stderr()).toBe('');
  } finally {
    await holder.end();
  }
});

it('a stop while the migrations run ends within the bound, exit code 0', { timeout: 60_000 }, async () => {
  // The lock is released and the stop sent at once, so it lands inside the migration run (or just
  // after it); timing-dependent, hence several tries.
  for (let attempt = 0; attempt < 4; attempt++) {
    const holder = await holdMigrationLock();
    const api = await startApiProcess({ LOG_LEVEL: 'silent', DATABASE_URL: database.url });
    await appServing(api);
    await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    await holder.end();
    const stopped = performance.now();
    const code = await api.stop(9_000);
    expect(code, `attempt ${attempt}`).toBe(0);
    expect(performance.now() - stopped).toBeLessThan(9_000);
    expect(api.stderr()).toBe('');
  }
});
