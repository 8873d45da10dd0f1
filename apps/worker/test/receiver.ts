/**
 * A real webhook receiver on 127.0.0.1:0 that records every request and answers as told. Every Plaid
 * webhook it gets (one with a `Plaid-Verification` header) is checked against the schema Plaid's
 * published document gives its type and code; `close()` fails with any that did not match.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { plaidWebhookProblems } from '@sandbank/testing/provider-documents';

export interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  /** The body's bytes as they arrived. */
  rawBytes: Buffer;
  receivedAt: number;
  path: string;
}

/**
 * A status to answer with (body `ok`, text/plain), a status with its own body and headers, or
 * 'hang' to never answer (until the receiver closes).
 */
export type Answer = number | { status: number; body: string | Buffer; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Plaid webhooks that do not match Plaid's document. */
  plaidProblems: string[];
  /** Decides the answer of each request; default 200. */
  respond: (request: Received, index: number) => Answer;
  /** Resolves when at least `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const plaidProblems: string[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBytes = Buffer.concat(chunks);
      const request = {
        headers: req.headers,
        rawBody: rawBytes.toString('utf8'),
        rawBytes,
        receivedAt: Date.now(),
        path: req.url ?? '/',
      };
      if (req.headers['plaid-verification']) {
        let body: { webhook_type?: unknown; webhook_code?: unknown } | undefined;
        try {
          body = JSON.parse(request.rawBody) as typeof body;
        } catch {
          plaidProblems.push(`not JSON: ${request.rawBody.slice(0, 200)}`);
        }
        const problems = body ? plaidWebhookProblems(body) : [];
        if (problems.length > 0) plaidProblems.push(`${problems.join('; ')}\n  body: ${request.rawBody.slice(0, 500)}`);
      }
      const index = received.push(request) - 1;
      for (const wake of waiters.splice(0)) wake();
      const answer = receiver.respond(request, index);
      if (answer === 'hang') return;
      if (typeof answer === 'number') return res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      const length = String(Buffer.byteLength(answer.body));
      res
        .writeHead(answer.status, { 'content-type': 'text/plain', 'content-length': length, ...answer.headers })
        .end(answer.body);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    received,
    plaidProblems,
    respond: () => 200,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} requests, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (plaidProblems.length > 0) {
        throw new Error(`${plaidProblems.length} Plaid webhooks do not match Plaid's document:\n${plaidProblems.join('\n')}`);
      }
    },
  };
  return receiver;
}
