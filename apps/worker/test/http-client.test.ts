/** One delivery attempt's HTTP side against a local server: statuses, redirects, long answers, timeouts, the address policy. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryAgent, postWebhook } from '../src/delivery/http-client.ts';

let server: http.Server;
let base: string;
let agent: Agent;
const received: { path: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      if (req.url === '/ok') res.writeHead(204).end();
      else if (req.url === '/moved') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/long') res.writeHead(200).end('x'.repeat(1024 * 1024));
      else if (req.url === '/error') res.writeHead(500).end('no');
      // '/hang': never answers
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = createDeliveryAgent({ allowPrivate: true }, 4);
});
afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string, options: { timeoutMs?: number; allowPrivate?: boolean; shutdown?: AbortSignal } = {}) =>
  postWebhook(agent, {
    url: `${base}${path}`,
    headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
    body: '{"type":"transaction.created"}',
    timeoutMs: options.timeoutMs ?? 2_000,
    policy: { allowPrivate: options.allowPrivate ?? true },
    shutdown: options.shutdown ?? new AbortController().signal,
  });

describe('postWebhook', () => {
  it('sends the body and headers and reports a 2xx as delivered', async () => {
    const outcome = await post('/ok');
    expect(outcome).toMatchObject({ statusCode: 204, error: null });
    const request = received.find((r) => r.path === '/ok');
    expect(request?.body).toBe('{"type":"transaction.created"}');
    expect(request?.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'evt_1', 'content-length': '30' });
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const before = received.filter((r) => r.path === '/ok').length;
    expect(await post('/moved')).toMatchObject({ statusCode: 302, error: 'HTTP 302' });
    expect(received.filter((r) => r.path === '/ok').length).toBe(before);
    expect(await post('/error')).toMatchObject({ statusCode: 500, error: 'HTTP 500' });
  });

  it('reads a long answer only up to its limit', async () => {
    expect(await post('/long')).toMatchObject({ statusCode: 200, error: null });
    // The connection pool still works afterwards.
    expect(await post('/ok')).toMatchObject({ statusCode: 204, error: null });
  });

  it('counts no answer within the timeout as a failed attempt', async () => {
    expect(await post('/hang', { timeoutMs: 300 })).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
  });

  it('rethrows when the worker shuts down mid-request, so the job is retried', async () => {
    const shutdown = new AbortController();
    setTimeout(() => shutdown.abort(), 100);
    await expect(post('/hang', { shutdown: shutdown.signal })).rejects.toThrow();
  });

  it('refuses private addresses unless allowed, on literals and on resolved names', async () => {
    const strict = createDeliveryAgent({ allowPrivate: false }, 1);
    try {
      for (const url of [`${base}/ok`, `${base.replace('127.0.0.1', 'localhost')}/ok`]) {
        const outcome = await postWebhook(strict, {
          url,
          headers: {},
          body: '{}',
          timeoutMs: 2_000,
          policy: { allowPrivate: false },
          shutdown: new AbortController().signal,
        });
        expect(outcome.statusCode).toBeNull();
        expect(outcome.error).toMatch(/non-public address/);
      }
    } finally {
      await strict.close();
    }
  });

  it('reports a refused connection as a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await postWebhook(agent, {
      url: `http://127.0.0.1:${port}/`,
      headers: {},
      body: '{}',
      timeoutMs: 2_000,
      policy: { allowPrivate: true },
      shutdown: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ statusCode: null });
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });
});
