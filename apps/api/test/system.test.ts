import { checkReadiness, createOrm } from '@sandbank/db';
import { createTestDatabase } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('health and readiness', () => {
  it('GET /healthz answers ok', async () => {
    const res = await app.call('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok' } });
  });

  it('GET /readyz answers 200 when migrated', async () => {
    const res = await app.call('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ready' } });
  });

  it('readiness fails when the database goes away, and says so in the contract', async () => {
    const database = await createTestDatabase();
    const orm = await createOrm({ url: database.url, poolSize: 2 });
    expect(await checkReadiness(orm)).toEqual({ ready: true });
    await database.drop();
    expect(await checkReadiness(orm)).toEqual({ ready: false, reason: 'database unavailable' });
    await orm.close();
  });

  it('GET /readyz is 503 in the error contract when the database is down', async () => {
    const down = await startTestApp();
    await down.dropDatabase(); // connections are killed: every query fails like a stopped server
    const res = await down.call('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', traceId: res.headers.get('x-request-id') });
    // Logged as a warning: a readiness probe sees this at every start and every database restart.
    const line = down.logs.map((entry) => JSON.parse(entry)).find((entry) => entry.traceId === res.body.traceId);
    expect(line).toMatchObject({ msg: 'request', status: 503, level: 40 });
    await down.close().catch(() => {});
  });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1, titled Sandbank, with the documented paths', async () => {
    const res = await app.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.title).toBe('Sandbank');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v1/auth/register', '/v1/auth/login', '/v1/auth/refresh', '/v1/auth/logout', '/v1/auth/me']),
    );
    expect(res.body.paths['/v1/auth/register'].post.responses['201']).toBeDefined();
    expect(res.body.paths['/v1/auth/me'].get.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });
});
