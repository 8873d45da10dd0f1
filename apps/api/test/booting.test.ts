import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootingHandler } from '../src/http/booting.ts';

const server = createServer(bootingHandler);
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('while the app is loading', () => {
  it('answers /healthz with 200 at once', async () => {
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { status: 'ok' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers everything else 503 in the error contract with Retry-After', async () => {
    const res = await fetch(`${url}/v1/accounts`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = await res.json();
    expect(body).toEqual({ traceId: res.headers.get('x-request-id'), code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
  });
});
