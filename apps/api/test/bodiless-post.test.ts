/**
 * A POST without a body has no media type: it is an empty input, not a 415 (issue 27). `curl -X POST`
 * sends neither Content-Type nor Content-Length; `fetch` without a body sends `Content-Length: 0`.
 * A body of another type, or a body that names no type, is still 415.
 */
import net from 'node:net';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Loose, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface RawAnswer {
  status: number;
  body: Loose;
}

/** A request written byte for byte, as curl sends it: only the headers given (plus Host). */
function raw(method: string, path: string, headers: Record<string, string>, body = ''): Promise<RawAnswer> {
  const { hostname, port } = new URL(app.url);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        const text = Buffer.concat(chunks).toString();
        const split = text.indexOf('\r\n\r\n');
        const [head, content] = [text.slice(0, split), text.slice(split + 4)];
        const body = /^transfer-encoding: chunked/im.test(head) ? unchunk(content) : content;
        resolve({ status: Number(head.split(' ')[1]), body: body ? JSON.parse(body) : undefined });
      } catch (error) {
        reject(error);
      }
    });
  });
}

function unchunk(content: string): string {
  let body = '';
  for (let at = 0; ; ) {
    const end = content.indexOf('\r\n', at);
    const size = Number.parseInt(content.slice(at, end), 16);
    if (!size) return body;
    body += content.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

const bearer = (user: TestUser) => ({ Authorization: `Bearer ${user.accessToken}` });

async function pendingCard(user: TestUser): Promise<string> {
  const accountId = await openAccount(app, user);
  expect((await simulate(app, user, { accountId, amount: 100_00 })).status).toBe(201);
  const card = await simulate(app, user, { accountId, amount: -20_00, status: 'pending' });
  return card.body.data.transaction.id;
}

describe('a POST with no body and no Content-Type is an empty input', () => {
  it('as curl -X POST sends it: a setup token, a void, a logout, and on /trpc', async () => {
    const user = await app.createUser();
    const setup = await raw('POST', '/v1/simplefin/setup-token', bearer(user));
    expect([setup.status, setup.body.data?.setupToken]).toEqual([201, expect.any(String)]);
    const voided = await raw('POST', `/v1/transactions/${await pendingCard(user)}/void`, bearer(user));
    expect([voided.status, voided.body.data?.transaction?.status]).toEqual([200, 'voided']);
    // Logging out (REST, then tRPC's own endpoint, whose empty input is no input): the session is gone.
    const other = await app.createUser();
    for (const [who, path] of [
      [user, '/v1/auth/logout'],
      [other, '/trpc/auth.logout'],
    ] as const) {
      expect((await raw('POST', path, bearer(who))).status).toBe(200);
      const refreshed = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: who.refreshToken } });
      expect(refreshed.status).toBe(401);
    }
  });

  it('as fetch sends it (Content-Length: 0)', async () => {
    const user = await app.createUser();
    const res = await fetch(`${app.url}/v1/simplefin/setup-token`, { method: 'POST', headers: bearer(user) });
    expect(res.status).toBe(201);
  });

  it('an empty input still meets the schema: a procedure that needs fields answers 400, not 415', async () => {
    const res = await raw('POST', '/v1/auth/login', {});
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('415 stays for a body of another type', () => {
  it.each([
    ['a form body', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '6' }, 'name=a'],
    ['an empty body that names another type', { 'Content-Type': 'text/plain', 'Content-Length': '0' }, ''],
    ['a body that names no type', { 'Content-Length': '2' }, '{}'],
    ['a chunked body that names no type', { 'Transfer-Encoding': 'chunked' }, '2\r\n{}\r\n0\r\n\r\n'],
  ])('%s, on REST and on /trpc', async (_, headers, body) => {
    const user = await app.createUser();
    const rest = await raw('POST', '/v1/simplefin/setup-token', { ...bearer(user), ...headers }, body);
    expect([rest.status, rest.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const trpc = await raw('POST', '/trpc/simplefin.createSetupToken', { ...bearer(user), ...headers }, body);
    expect([trpc.status, trpc.body.error?.data?.code ?? trpc.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});
