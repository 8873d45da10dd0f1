/**
 * The face kit with a toy face on a real HTTP server and the real database (the ORM of a test app):
 * a route's answer and status, the prelude's refusal, the face's error shape for its own errors,
 * our `AppError`s, a crash (500, logged), an unknown path and a body that is not JSON; the
 * per-IP refusal writer; the document built from the route table; in-flight tracking.
 */

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AppError, readSession } from '@sandbank/core';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, type TestApp } from '../../test/helpers.ts';
import { inFlightRequests } from '../http/in-flight.ts';
import { requestContext } from '../http/request-context.ts';
import { type Call, type FaceDefinition, faceRefusals, mountFace } from './kit.ts';
import { serveFaceDocument } from './openapi-json.ts';

class ToyError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

type ToyCall = Call & { who: string };

const toy: FaceDefinition<ToyCall> = {
  name: 'toy',
  basePath: '/toy',
  info: { title: 'Toy', version: '1', description: 'A face for the kit’s test' },
  securityScheme: { type: 'apiKey', in: 'header', name: 'x-who' },
  body: { limit: '1kb', anyContentType: true },
  prelude: async (call) => {
    const who = call.req.headers['x-who'];
    if (typeof who !== 'string') throw new ToyError(401, 'who are you');
    // The request's own forked EntityManager reaches the database.
    const none = await readSession(call.em, { applicationId: randomUUID(), id: randomUUID() });
    return { ...call, who: `${who}:${none === null}` };
  },
  within: async (_call, work) => ({ wrapped: await work() }),
  routes: {
    'get /hello': { summary: 'Hello', response: z.object({ hello: z.string() }), run: async (call) => ({ hello: call.who }) },
    'post /things': {
      summary: 'Make a thing',
      body: z.object({ name: z.string() }),
      response: z.object({ made: z.string() }),
      status: 201,
      run: async (call) => ({ made: (call.req.body as { name: string }).name }),
    },
    'get /open': { summary: 'No prelude', public: true, response: z.object({}), run: async () => ({ open: true }) },
    'get /refused': {
      summary: 'Ours',
      response: z.object({}),
      run: async () => Promise.reject(new AppError('NOT_FOUND', 'gone')),
    },
    'get /crash': { summary: 'Crash', response: z.object({}), run: async () => Promise.reject(new TypeError('boom')) },
    'get /slow': {
      summary: 'Slow',
      response: z.object({}),
      run: async () => new Promise((resolve) => setTimeout(() => resolve({ slow: true }), 300)),
    },
  },
  errors: {
    answer: (error) =>
      error instanceof ToyError
        ? { status: error.status, body: { toyError: error.message } }
        : error instanceof AppError
          ? { status: 404, body: { toyError: `ours: ${error.message}` } }
          : { status: 500, body: { toyError: 'crashed' } },
    bodyRefused: () => ({ status: 400, body: { toyError: 'not json' } }),
    notFound: () => ({ status: 404, body: { toyError: 'no such path' } }),
    rateLimited: (_req, headers) => ({ status: 429, body: { toyError: 'slow down' }, headers }),
    schema: z.object({ toyError: z.string() }),
    statuses: { '401': 'Who are you' },
  },
};

let app: TestApp;
let url: string;
let server: ReturnType<express.Express['listen']>;
const inFlight = inFlightRequests();
beforeAll(async () => {
  app = await startTestApp();
  const host = express();
  host.use(requestContext(app.deps.logger));
  serveFaceDocument(host, toy, 'http://sandbank.test');
  mountFace(host, toy, app.deps, inFlight);
  server = host.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

const call = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(url + path, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const who = { headers: { 'x-who': 'ada' } };

describe('the face kit', () => {
  it('runs the prelude, the wrapper and the route, with the route’s status', async () => {
    expect(await call('/toy/hello', who)).toEqual({ status: 200, body: { wrapped: { hello: 'ada:true' } } });
    const made = await call('/toy/things', { method: 'POST', body: '{"name":"x"}', ...who });
    expect(made).toEqual({ status: 201, body: { wrapped: { made: 'x' } } });
    expect(await call('/toy/open')).toEqual({ status: 200, body: { open: true } });
  });

  it('answers every failure in the face’s shape', async () => {
    expect(await call('/toy/hello')).toEqual({ status: 401, body: { toyError: 'who are you' } });
    expect(await call('/toy/refused', who)).toEqual({ status: 404, body: { toyError: 'ours: gone' } });
    expect(await call('/toy/crash', who)).toEqual({ status: 500, body: { toyError: 'crashed' } });
    expect(app.logs.join('')).toContain('toy face: unexpected error');
    expect(await call('/toy/nowhere', who)).toEqual({ status: 404, body: { toyError: 'no such path' } });
    expect(await call('/toy/things', { method: 'POST', body: '{"name":', ...who })).toEqual({
      status: 400,
      body: { toyError: 'not json' },
    });
    expect(await call('/toy/things', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(2000) }), ...who })).toEqual({
      status: 400,
      body: { toyError: 'not json' },
    });
  });

  it('tracks handlers in flight until they settle', async () => {
    const slow = call('/toy/slow', who);
    await new Promise((resolve) => setTimeout(resolve, 100));
    let settled = false;
    const waiting = inFlight.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect((await slow).status).toBe(200);
    await waiting;
    expect(settled).toBe(true);
  });

  it('writes the per-address refusal in the face’s shape and serves the document from the route table', async () => {
    const refusals = Object.entries(faceRefusals([toy]));
    expect(refusals.map(([prefix]) => prefix)).toEqual(['/toy/']);
    const refuse = refusals[0]?.[1];
    if (!refuse) throw new Error('no refusal writer');
    const sent: { status?: number; body?: unknown; headers?: unknown } = {};
    const res = {
      headersSent: false,
      status(code: number) {
        sent.status = code;
        return this;
      },
      set(headers: unknown) {
        sent.headers = headers;
        return this;
      },
      json(body: unknown) {
        sent.body = body;
        return this;
      },
    };
    refuse({} as express.Request, res as unknown as express.Response, { 'Retry-After': '7' });
    expect(sent).toEqual({ status: 429, body: { toyError: 'slow down' }, headers: { 'Retry-After': '7' } });

    const document = (await call('/faces/toy/openapi.json')).body as {
      servers: { url: string }[];
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown }>>;
    };
    expect(document.servers[0]?.url).toBe('http://sandbank.test/toy');
    expect(Object.keys(document.paths).sort()).toEqual(['/crash', '/hello', '/open', '/refused', '/slow', '/things']);
    expect(Object.keys(document.paths['/things']?.post?.responses ?? {})).toEqual(['201', '401']);
    expect(document.paths['/open']?.get?.security).toEqual([]);
  });
});
