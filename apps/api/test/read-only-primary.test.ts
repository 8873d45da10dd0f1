/**
 * A failover seen from the API (issue 45): the old primary is demoted, its sessions are cut, and
 * until the proxy routes elsewhere new sessions land on a read-only server. A write then fails
 * with SQLSTATE 25006 (read_only_sql_transaction): that is the database being unavailable for
 * writes, so the API answers 503 SERVICE_UNAVAILABLE with Retry-After — never a 500 — and books
 * again once writes are accepted, the client's idempotent retry answered once.
 */
import { withClient } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { expect, it } from 'vitest';
import { startTestApp } from './helpers.ts';

it('answers 503 with Retry-After while its sessions land on a read-only server, then books once', async () => {
  const app = await startTestApp({ LOG_LEVEL: 'silent' });
  const database = new URL(app.databaseUrl).pathname.slice(1);
  // The test's own sessions stay writable whatever the database's default.
  const admin = `${app.databaseUrl}${app.databaseUrl.includes('?') ? '&' : '?'}options=-c%20default_transaction_read_only%3Doff`;
  const demote = (readOnly: boolean) =>
    withClient(admin, async (client) => {
      await client.query(`alter database "${database}" set default_transaction_read_only = ${readOnly ? 'on' : 'off'}`);
      // Cut every other session, as a demotion does: the app's pool reconnects to the new default.
      await client.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
    });
  try {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await demote(true);
    const seen: { status: number; code?: string; retryAfter: string | null }[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await simulate(app, user, { accountId, amount: 100, externalTxnId: 'failover-1' });
      seen.push({ status: res.status, code: res.body?.code, retryAfter: res.headers.get('retry-after') });
    }
    for (const answer of seen) expect(answer).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '2' });

    await demote(false);
    let booked = await simulate(app, user, { accountId, amount: 100, externalTxnId: 'failover-1' });
    // The first call after the sessions were cut may meet a terminated connection: 503 as well.
    for (let i = 0; i < 5 && booked.status === 503; i++) {
      booked = await simulate(app, user, { accountId, amount: 100, externalTxnId: 'failover-1' });
    }
    expect(booked.status).toBe(201);
    const again = await simulate(app, user, { accountId, amount: 100, externalTxnId: 'failover-1' });
    expect(again.body.data.transaction.id).toBe(booked.body.data.transaction.id);
    const { rows } = await app.db.query<{ count: number }>(
      "select count(*)::int as count from transactions where external_txn_id = 'failover-1'",
    );
    expect(rows[0]?.count).toBe(1);
  } finally {
    await app.close();
    await app.dropDatabase();
  }
});
