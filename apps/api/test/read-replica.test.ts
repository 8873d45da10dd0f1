/**
 * DATABASE_READ_URL on a real streaming replica (streaming-replica.ts): the read-only paths read it,
 * a caller reads its own writes at once (the write's WAL position is awaited on the replica, then
 * the primary answers), a client's `Sandbank-Read-After` header is honoured, a lagging or dead
 * replica leaves reads to the primary, and no read is older than its reader's write.
 */

import { withClient } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enablebankingCalls } from './faces/enablebanking/calls.ts';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';
import { replicaUnavailable, type StreamingPair, startStreamingPair } from './streaming-replica.ts';

type History = Output['transactions']['listAccountTransactions'];
const WAIT_MS = 300;
const unavailable = replicaUnavailable();

describe.skipIf(unavailable !== null)(`read replica${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let pair: StreamingPair;
  let app: TestApp;
  let user: TestUser;
  let accountId: string;
  const onReplica = <T>(sql: string) => withClient(pair.replicaUrl, async (client) => (await client.query<T & object>(sql)).rows);
  const counts = () => ({ ...(app.deps.readRouting?.counts ?? { replica: 0, primary: 0, askedAgain: 0 }) });
  const history = (caller: TestUser, headers: Record<string, string> = {}) =>
    app.call<History>('GET', `/v1/accounts/${accountId}/transactions?limit=100`, { token: caller.accessToken, headers });
  /** Waits until the replica has replayed everything the primary has flushed. */
  const caughtUp = async () => {
    const [primary] = (await app.db.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn')).rows;
    for (let i = 0; i < 200; i++) {
      const [row] = await onReplica<{ done: boolean }>(`select pg_last_wal_replay_lsn() >= '${primary?.lsn}'::pg_lsn as done`);
      if (row?.done) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the replica did not catch up within 5 s');
  };

  beforeAll(async () => {
    pair = await startStreamingPair();
    app = await startTestApp(
      {
        LOG_LEVEL: 'silent',
        DATABASE_READ_URL: pair.replicaUrl,
        DATABASE_READ_MAX_LAG_MS: '60000',
        DATABASE_READ_WAIT_MS: String(WAIT_MS),
      },
      { databaseUrl: pair.primaryUrl },
    );
    user = await app.createUser();
    accountId = await openAccount(app, user);
    expect((await simulate(app, user, { accountId, amount: 125000, description: 'first' })).status).toBe(201);
    await caughtUp();
  }, 60_000);

  afterAll(async () => {
    await onReplica('select pg_wal_replay_resume()').catch(() => {});
    await app?.close();
    await pair?.stop();
  });

  it('reads the history on the replica: its sessions are there, and a change it has not replayed is not seen', async () => {
    const before = counts();
    const first = await history(user);
    expect(first.status).toBe(200);
    expect(first.body.data.map((row) => row.description)).toEqual(['first']);
    const sessions = await onReplica<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where application_name = 'sandbank-read' and datname = 'sandbank'`,
    );
    expect(sessions[0]?.n).toBeGreaterThan(0);

    // A change this caller did not make (SQL on the primary) while the replica's replay is paused.
    await onReplica('select pg_wal_replay_pause()');
    await app.db.query(
      `update transactions set description = 'changed on the primary', version = version + 1 where account_id = $1`,
      [accountId],
    );
    const stale = await history(user);
    expect(stale.body.data.map((row) => row.description)).toEqual(['first']); // the replica's state: the read went there
    expect(counts().replica - before.replica).toBe(2);
    expect(counts().primary - before.primary).toBe(0);
  });

  it('answers a caller its own write at once while replay is paused: the primary, after the bounded wait', async () => {
    const before = counts();
    const booked = await simulate(app, user, { accountId, amount: 700, description: 'second' });
    expect(booked.status).toBe(201);
    const readAfter = booked.headers.get('sandbank-read-after');
    expect(readAfter).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const started = performance.now();
    const mine = await history(user);
    const waited = performance.now() - started;
    expect(mine.body.data.map((row) => row.id)).toContain(booked.body.data.transaction.id);
    expect(mine.body.data.map((row) => row.description)).toContain('changed on the primary');
    expect(waited).toBeGreaterThanOrEqual(WAIT_MS - 20);
    expect(counts().primary - before.primary).toBe(1);

    // Another caller that has written nothing reads the replica, unless it brings the write's position.
    // This one was created behind the API's back (SQL on the primary), so the paused replica does not
    // know it: its answer (401, no such world) is asked again of the primary, which has it.
    const other = await app.createUser();
    const own = (caller: TestUser, headers?: Record<string, string>) =>
      app.call('GET', '/v1/transactions/sync?limit=10', { token: caller.accessToken, ...(headers ? { headers } : {}) });
    const plain = counts();
    const first = await own(other);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect([counts().replica - plain.replica, counts().askedAgain - plain.askedAgain]).toEqual([1, 1]);
    expect((await own(other, { 'Sandbank-Read-After': readAfter ?? '' })).status).toBe(200);
    expect(counts().primary - plain.primary).toBe(1);
    const bad = await own(other, { 'Sandbank-Read-After': 'yesterday' });
    expect([bad.status, bad.body.code, bad.body.details?.[0]?.path]).toEqual([400, 'VALIDATION_ERROR', 'Sandbank-Read-After']);
  });

  it('reads the replica again once it has replayed the write', async () => {
    await onReplica('select pg_wal_replay_resume()');
    await caughtUp();
    const before = counts();
    const res = await history(user);
    expect(res.body.data.map((row) => row.description).sort()).toEqual(['changed on the primary', 'second']);
    // The statements face reads there too: the file is the replica's, with both rows.
    const statement = await fetch(`${app.url}/v1/accounts/${accountId}/statement?format=csv`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(statement.status).toBe(200);
    expect(await statement.text()).toContain('changed on the primary');
    expect(counts().replica - before.replica).toBe(2);
  });

  it('never answers a read older than its reader’s write, while the replica pauses and resumes under it', async () => {
    let toggling = true;
    const toggler = (async () => {
      for (let paused = false; toggling; paused = !paused) {
        await onReplica(paused ? 'select pg_wal_replay_resume()' : 'select pg_wal_replay_pause()');
        await new Promise((resolve) => setTimeout(resolve, 40 + Math.random() * 80));
      }
      await onReplica('select pg_wal_replay_resume()');
    })();
    const before = counts();
    const stale: string[] = [];
    try {
      for (let i = 0; i < 25; i++) {
        const booked = await simulate(app, user, { accountId, amount: 100 + i, description: `loop ${i}` });
        expect(booked.status).toBe(201);
        const id: string = booked.body.data.transaction.id;
        const read = await history(user);
        if (!read.body.data.some((row) => row.id === id)) stale.push(id);
      }
    } finally {
      toggling = false;
      await toggler;
    }
    expect(stale).toEqual([]);
    const routed = { replica: counts().replica - before.replica, primary: counts().primary - before.primary };
    expect(routed.replica + routed.primary).toBe(25);
  }, 30_000);

  it('serves the faces’ data reads from the replica too, and a face client its owner’s write at once', async () => {
    await onReplica('select pg_wal_replay_resume()');
    // The three faces' credentials (writes: read back by their checks, which stay on the primary).
    const setup = await app.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
    expect(setup.status).toBe(201);
    const claimUrl = new URL(Buffer.from(setup.body.data.setupToken, 'base64').toString());
    const accessUrl = new URL(await (await fetch(app.url + claimUrl.pathname, { method: 'POST' })).text());
    const simplefin = async () => {
      const url = `${app.url}${accessUrl.pathname}/accounts?start-date=0`;
      const basic = Buffer.from(`${decodeURIComponent(accessUrl.username)}:${decodeURIComponent(accessUrl.password)}`);
      const res = await fetch(url, { headers: { authorization: `Basic ${basic.toString('base64')}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { accounts: { transactions: { description: string }[] }[] };
      return body.accounts.flatMap((account) => account.transactions.map((row) => row.description));
    };
    const plaid = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(plaid);
    const plaidRead = async () =>
      (
        await plaid.transactionsGet({ access_token: accessToken, start_date: '2000-01-01', end_date: '2100-01-01' })
      ).data.transactions.map((row) => row.name);
    const gocardless = gocardlessCalls(() => app);
    const nordigen = await gocardless.client(user);
    const session = await nordigen.initSession({ redirectUrl: 'https://budget.example/back', institutionId: SANDBOX });
    const linked = await nordigen.requisition.getRequisitionById(session.id);
    const bankAccount = nordigen.account(linked.accounts.find((id: string) => id) ?? '');
    const gocardlessRead = async () => {
      const { transactions } = await bankAccount.getTransactions();
      return [...transactions.booked, ...transactions.pending].map((row: { remittanceInformationUnstructured?: string }) =>
        String(row.remittanceInformationUnstructured),
      );
    };
    const enablebanking = enablebankingCalls(() => app);
    const application = await enablebanking.register(user);
    const uid: string = (await enablebanking.sandboxSession(application)).accounts[0].uid;
    const enablebankingRead = async () => {
      const page = await enablebanking.eb(application, 'GET', `/accounts/${uid}/transactions`);
      expect(page.status).toBe(200);
      return page.body.transactions.map((row: { remittance_information?: string[] }) => String(row.remittance_information));
    };
    const reads: (() => Promise<string[]>)[] = [simplefin, plaidRead, gocardlessRead, enablebankingRead];
    await caughtUp();

    try {
      // A change behind the API's back while replay is paused: the faces read the replica's state.
      await onReplica('select pg_wal_replay_pause()');
      await app.db.query(
        `update transactions set description = 'faces: changed on the primary', version = version + 1 where account_id = $1 and description = 'first'`,
        [accountId],
      );
      const before = counts();
      for (const read of reads) expect((await read()).some((text) => text.includes('faces: changed'))).toBe(false);
      expect(counts().replica - before.replica).toBe(reads.length);

      // The owner books: each face's next read waits for that write, then asks the primary.
      const booked = await simulate(app, user, { accountId, amount: 4200, description: 'faces: my own write' });
      expect(booked.status).toBe(201);
      const mine = counts();
      for (const read of reads) expect((await read()).some((text) => text.includes('faces: my own write'))).toBe(true);
      expect(counts().primary - mine.primary).toBe(reads.length);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
      await caughtUp();
    }
  }, 30_000);

  it('leaves reads to the primary when the replica lags past the bound', async () => {
    const strict = await startTestApp(
      { LOG_LEVEL: 'silent', DATABASE_READ_URL: pair.replicaUrl, DATABASE_READ_MAX_LAG_MS: '200', DATABASE_READ_WAIT_MS: '50' },
      { databaseUrl: pair.primaryUrl },
    );
    try {
      await caughtUp();
      await onReplica('select pg_wal_replay_pause()');
      await app.db.query(
        `update transactions set description = 'lagging', version = version + 1 where account_id = $1 and description = 'second'`,
        [accountId],
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const res = await strict.call<History>('GET', `/v1/accounts/${accountId}/transactions?limit=100`, {
        token: user.accessToken,
      });
      expect(res.body.data.map((row) => row.description)).toContain('lagging');
      expect(strict.deps.readRouting?.counts).toEqual({ replica: 0, primary: 1, askedAgain: 0 });
    } finally {
      await onReplica('select pg_wal_replay_resume()');
      await strict.close();
    }
  });

  it('leaves reads to the primary when the replica is down', async () => {
    await pair.stopReplica();
    const before = counts();
    const res = await history(user);
    expect(res.status).toBe(200);
    expect(res.body.data.map((row) => row.description)).toContain('lagging');
    expect(counts().primary - before.primary).toBe(1);
  });
});
