import type { ErrorBody } from '@sandbank/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

function expectContract(res: { status: number; headers: Headers; body: ErrorBody }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.traceId).toBe(res.headers.get('x-request-id'));
  expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(['code', 'message', 'traceId']));
  expect(JSON.stringify(res.body)).not.toMatch(/stack|at \w+ \(|select |insert /i);
}

describe('error contract on every path', () => {
  it('unknown route → 404 NOT_FOUND', async () => {
    expectContract(await app.call('GET', '/v1/nope'), 404, 'NOT_FOUND');
    expectContract(await app.call('DELETE', '/whatever/else'), 404, 'NOT_FOUND');
  });

  it('a known path with another method → 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const res = await app.call('PUT', '/v1/accounts');
    expectContract(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    const close = await app.call('GET', '/v1/accounts/0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d/close');
    expectContract(close, 405, 'METHOD_NOT_ALLOWED');
    expect(close.headers.get('allow')).toBe('POST');
  });

  it('malformed JSON → 400 VALIDATION_ERROR', async () => {
    expectContract(await app.call('POST', '/v1/auth/login', { body: '{"email": ' }), 400, 'VALIDATION_ERROR');
  });

  it('wrong content type → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await app.call('POST', '/v1/auth/login', { body: 'email=a', headers: { 'content-type': 'text/plain' } });
    expectContract(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a JSON content type with a charset is accepted', async () => {
    const res = await app.call('POST', '/v1/auth/login', {
      body: { email: 'nobody@example.com', password: 'whatever-123' },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectContract(res, 401, 'INVALID_CREDENTIALS');
  });

  it('body over 64 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await app.call('POST', '/v1/auth/login', { body: { email: 'a@b.co', password: 'x'.repeat(70 * 1024) } });
    expectContract(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('zod failures → 400 with details naming each field', async () => {
    const res = await app.call('POST', '/v1/auth/register', { body: { email: 'nope', password: 'short', admin: true } });
    expectContract(res, 400, 'VALIDATION_ERROR');
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'email', message: expect.any(String) },
        { path: 'password', message: expect.any(String) },
        { path: 'admin', message: 'Unknown field' },
      ]),
    );
  });

  it('keeps a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const kept = await app.call('GET', '/v1/nope', { headers: { 'x-request-id': 'client-trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('client-trace-123');
    expect(kept.body.traceId).toBe('client-trace-123');
    const replaced = await app.call('GET', '/v1/nope', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('puts the traceId in the log line of the request', async () => {
    await app.call('GET', '/v1/nope', { headers: { 'x-request-id': 'trace-in-logs-1' } });
    const line = app.logs.map((entry) => JSON.parse(entry)).find((entry) => entry.traceId === 'trace-in-logs-1');
    expect(line).toMatchObject({ msg: 'request', status: 404, method: 'GET', path: '/v1/nope' });
  });

  it('thrown exceptions → 500 INTERNAL without internals', async () => {
    const broken = await startTestApp();
    await broken.dropDatabase(); // every query now throws inside the procedure
    const res = await broken.call('POST', '/v1/auth/login', { body: { email: 'a@b.co', password: 'whatever-123' } });
    expectContract(res, 500, 'INTERNAL');
    expect(res.body.message).toBe('Internal server error');
    const line = broken.logs.map((entry) => JSON.parse(entry)).find((entry) => entry.msg === 'request' && entry.status === 500);
    expect(line).toMatchObject({ level: 50, traceId: res.body.traceId });
    await broken.close().catch(() => {});
  });

  it('tRPC clients get the same code and traceId', async () => {
    const res = await app.call('POST', '/trpc/auth.login', {
      body: { email: 'nobody@example.com', password: 'whatever-123' },
      headers: { 'x-request-id': 'trpc-trace-1' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.data).toMatchObject({ code: 'INVALID_CREDENTIALS', traceId: 'trpc-trace-1' });
    expect(JSON.stringify(res.body)).not.toContain('stack');
  });
});
