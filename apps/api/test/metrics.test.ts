import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const scrape = async (): Promise<string> => {
  const res = await fetch(`${app.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};

describe('/metrics', () => {
  it('counts requests by method, route pattern and status, and times them', async () => {
    const user = await app.createUser();
    await app.call('GET', '/v1/auth/me', { token: user.accessToken });
    await app.call('GET', '/v1/auth/me');
    await app.call('GET', `/v1/accounts/${uuidv7()}/nothing-here`);
    await app.call('GET', '/trpc/auth.me', { token: user.accessToken });
    await app.call('GET', `/v1/accounts/${uuidv7()}/statement?format=csv`, { token: user.accessToken });
    await app.call('GET', `/api/owner/${user.id}/accounts/${uuidv7()}/statement?format=csv`);
    await app.call('GET', `/v1/payment-files/${uuidv7()}/status-report`, { token: user.accessToken });
    const text = await scrape();
    expect(text).toContain('http_requests_total{method="GET",route="/v1/auth/me",status="200"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/auth/me",status="401"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/trpc/auth.me",status="200"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/accounts/{id}/statement",status="404"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/api/owner/{owner}/accounts/{id}/statement",status="401"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/payment-files/{id}/status-report",status="404"} 1');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.5",method="GET",route="\/v1\/auth\/me",status="200"\} 1/);
    // Raw paths (and so ids) never become label values.
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it('exposes the default process metrics and the simulations counter', async () => {
    const text = await scrape();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/^sandbank_simulations_total \d+$/m);
  });

  it('counts simulations answered 201 (not replays), over REST and tRPC, and labels ids by pattern', async () => {
    const user = await app.createUser();
    const account = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Metrics' } });
    const accountId = account.body.data.id as string;
    const body = { accountId, amount: 10_000, externalTxnId: 'metrics-1' };
    expect((await app.call('POST', '/v1/simulations/transaction', { token: user.accessToken, body })).status).toBe(201);
    expect((await app.call('POST', '/v1/simulations/transaction', { token: user.accessToken, body })).status).toBe(200);
    const trpc = await app.call('POST', '/trpc/simulations.simulateTransaction', {
      token: user.accessToken,
      body: { accountId, amount: -500 },
    });
    expect(trpc.status).toBe(201);
    await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    const text = await scrape();
    expect(text).toContain('sandbank_simulations_total 2');
    expect(text).toContain('http_requests_total{method="POST",route="/v1/simulations/transaction",status="201"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/accounts/{id}",status="200"} 1');
    expect(text).not.toContain(accountId);
  });

  it('reads webhook deliveries by status and the job queue by state at scrape time', async () => {
    const sql = (query: string, params: unknown[] = []) => app.orm.em.getConnection().execute(query, params);
    const user = await app.createUser();
    const webhookId = uuidv7();
    await sql(
      `insert into webhooks (id, user_id, client_id, url, events, secret_ciphertext, secret_key_id)
       values (?, ?, 'metrics', 'http://127.0.0.1:9/hook', '{transaction.created}', 'x', 'test1')`,
      [webhookId, user.id],
    );
    for (const status of ['succeeded', 'succeeded', 'failed', 'pending']) {
      const eventId = uuidv7();
      await sql(`insert into events (id, type, user_id, payload) values (?, 'transaction.created', ?, '{}')`, [eventId, user.id]);
      await sql(`insert into webhook_deliveries (id, webhook_id, event_id, status) values (?, ?, ?, ?)`, [
        uuidv7(),
        webhookId,
        eventId,
        status,
      ]);
    }
    await sql(`select graphile_worker.add_job('metrics-test', '{}'::json)`);
    await sql(`select graphile_worker.add_job('metrics-test', '{}'::json, run_at => now() + interval '1 hour')`);

    const text = await scrape();
    expect(text).toContain('sandbank_webhook_deliveries{status="succeeded"} 2');
    expect(text).toContain('sandbank_webhook_deliveries{status="failed"} 1');
    expect(text).toContain('sandbank_webhook_deliveries{status="pending"} 1');
    expect(text).toContain('sandbank_queue_jobs{state="ready"} 1');
    expect(text).toContain('sandbank_queue_jobs{state="scheduled"} 1');
    expect(text).toContain('sandbank_queue_jobs{state="locked"} 0');
  });
});
