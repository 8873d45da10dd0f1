/** A real webhook receiver on 127.0.0.1:0 that records every request and answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** Decides the answer of each request; default 200. */
  respond: (request: Received, index: number) => Answer;
  /** Resolves when at least `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
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
    },
  };
  return receiver;
}
